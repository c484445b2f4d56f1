import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { createLoaders } from './dataloaders.js';

describe('createLoaders', () => {
  it('makes each loader on first use only, then keeps it (batching by name still one query)', async () => {
    const finds: unknown[] = [];
    const em = {
      find: async (_entity: unknown, where: { id: { $in: number[] } }) => {
        finds.push(where.id.$in);
        return where.id.$in.map((id) => ({ id, name: `n${id}` }));
      },
    } as unknown as EntityManager;
    const loaders = createLoaders(em);
    expect(Object.getOwnPropertyDescriptor(loaders, 'department')?.get).toBeTypeOf('function'); // a getter: nothing made yet
    const department = loaders.department;
    expect(loaders.department).toBe(department);
    expect(loaders.location).not.toBe(department);
    expect(await Promise.all([department.load(1), department.load(2)])).toEqual([
      { id: 1, name: 'n1' },
      { id: 2, name: 'n2' },
    ]);
    expect(finds).toEqual([[1, 2]]);
  });
});
