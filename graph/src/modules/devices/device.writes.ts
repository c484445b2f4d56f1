import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { checkId, parseInput } from '../../platform/validation.js';
import { expectVersion, flushSave } from '../../platform/versioning.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';

interface Record_ {
  id: number;
  version: number;
  updatedAt: Date;
  updatedById?: number | null;
}
type Values = Record<string, unknown>;

/**
 * What one kind (computer, smartphone, Office account) tells the shared write flow: its input
 * rules, how its record reads as comparable values, how values become entity data, which checks
 * its references need and which event (and history) a save records.
 */
export interface WriteSpec<E extends Record_, D extends Values, V> {
  noun: string;
  entity: EntityName<E>;
  createSchema: z.ZodType<D>;
  updateSchema: z.ZodType<D & { version: number }>;
  unique?: Record<string, { field: string; message: string }>;
  /** The writable fields as the record holds them, keyed like the input (ids for references). */
  values(e: E): D;
  /** Fields an update keeps when its input leaves them out (secrets the screens never load; 管理番号 for older tools). */
  keptWhenOmitted?: readonly (keyof D & string)[];
  /** Adjusts an update before it is compared and applied (e.g. the previous-user rule). */
  prepare?(data: D, before: D): D;
  checkRefs(tx: EntityManager, data: D, before: D | null): Promise<void>;
  /** Input values → entity properties (references as ids). */
  toEntity(data: D): Record<string, unknown>;
  recordCreated(tx: EntityManager, e: E, actorId: number): Promise<void>;
  recordUpdated(tx: EntityManager, e: E, changed: string[], before: D, actorId: number): Promise<void>;
  get(ctx: AppContext, id: number): Promise<V>;
}

/** Creates one record: device roles only, validated, references checked, event in the same transaction. */
export async function createRecord<E extends Record_, D extends Values, V>(
  ctx: AppContext,
  spec: WriteSpec<E, D, V>,
  input: unknown,
): Promise<V> {
  const user = requireUser(ctx, DEVICE_ROLES);
  const data = parseInput(spec.createSchema, input);
  const id = await ctx.em.transactional(async (tx) => {
    await spec.checkRefs(tx, data, null);
    const e = tx.create(spec.entity, { ...spec.toEntity(data), updatedById: user.id } as never);
    await flushSave(tx, null, async () => null, spec.unique);
    await spec.recordCreated(tx, e, user.id);
    await tx.flush();
    return e.id;
  });
  return spec.get(ctx, id);
}

/**
 * Updates one record with optimistic locking: the version the editor loaded must be current
 * (CONFLICT naming who saved otherwise). Saving unchanged values writes nothing and records nothing.
 */
export async function updateRecord<E extends Record_, D extends Values, V>(
  ctx: AppContext,
  spec: WriteSpec<E, D, V>,
  id: number,
  input: unknown,
): Promise<V> {
  const user = requireUser(ctx, DEVICE_ROLES);
  const parsed = parseInput(spec.updateSchema, input);
  checkId(id, spec.noun);
  await ctx.em.transactional(async (tx) => {
    const e = await tx.findOne(spec.entity, { id } as never);
    if (!e) throw notFound(spec.noun);
    const current = () => spec.get(ctx, id);
    await expectVersion(tx, e, parsed.version, current, user.id);
    const { version: _v, ...rest } = parsed;
    const before = spec.values(e);
    const given = rest as unknown as D;
    for (const k of spec.keptWhenOmitted ?? []) if (given[k] === undefined) given[k] = before[k];
    const data = spec.prepare ? spec.prepare(given, before) : given;
    await spec.checkRefs(tx, data, before);
    const changed = Object.keys(before).filter((k) => before[k] !== data[k]);
    if (changed.length === 0) return;
    tx.assign(e, { ...spec.toEntity(data), updatedById: user.id } as never);
    await flushSave(tx, e, current, spec.unique, user.id);
    await spec.recordUpdated(tx, e, changed, before, user.id);
    await tx.flush();
  });
  return spec.get(ctx, id);
}
