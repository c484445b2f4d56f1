import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Department, Location } from '../modules/departments/department.entity.js';

export interface NamedRow {
  id: number;
  name: string;
}

/** Batches "name of department / location by id" lookups so list resolvers never go N+1. */
function namedLoader(em: EntityManager, table: 'department' | 'location'): DataLoader<number, NamedRow | null> {
  const entity = table === 'department' ? Department : Location;
  return new DataLoader(async (ids) => {
    const rows = await em.find(entity, { id: { $in: [...ids] } }, { fields: ['id', 'name'] });
    const byId = new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/**
 * The request's loaders, each made on first use: most requests use none, and two DataLoaders (with
 * their caches) per request were garbage for every query and subscription frame (bench/computers).
 */
export function createLoaders(em: EntityManager): Loaders {
  let department: DataLoader<number, NamedRow | null> | undefined;
  let location: DataLoader<number, NamedRow | null> | undefined;
  return {
    get department() {
      return (department ??= namedLoader(em, 'department'));
    },
    get location() {
      return (location ??= namedLoader(em, 'location'));
    },
  };
}

export interface Loaders {
  readonly department: DataLoader<number, NamedRow | null>;
  readonly location: DataLoader<number, NamedRow | null>;
}
