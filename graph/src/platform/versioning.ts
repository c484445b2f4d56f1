import { OptimisticLockError, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, conflict } from './errors.js';
/** What optimistic locking needs of a record (see VersionedEntity). */
interface VersionedEntity {
  version: number;
  updatedAt: Date;
  updatedById?: number | null;
}

/** YYYY/MM/DD HH:mm in Tokyo: how the web app writes every timestamp (displayDateTime), so a message reads the same. */
const JST_DATE_TIME = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

async function conflictError<T>(
  em: EntityManager,
  entity: VersionedEntity,
  current: () => Promise<T>,
  callerId: number | null,
) {
  const rows: { name: string }[] = entity.updatedById
    ? await em.execute(`select name from employee where id = ?`, [entity.updatedById])
    : [];
  const who = rows[0]?.name ?? '他のユーザー';
  const at = JST_DATE_TIME.format(new Date(entity.updatedAt));
  // The same person in another tab or on another device: not someone else.
  const bySelf = callerId !== null && entity.updatedById === callerId;
  const message = bySelf
    ? `${at} に別の画面（別の端末）でこのデータが保存されました。最新の内容を確認してから、もう一度保存してください。`
    : `${who}さんが ${at} にこのデータを更新しています。最新の内容を確認してから、もう一度保存してください。`;
  return conflict(message, {
    current: await current(),
    updatedBy: who,
    updatedBySelf: bySelf,
    updatedAt: new Date(entity.updatedAt).toISOString(),
    currentVersion: entity.version,
  });
}

/**
 * Optimistic locking for a save: the version the editor loaded must still be the current one,
 * otherwise CONFLICT naming who saved in between, with the current record. The UPDATE itself
 * also checks the version (MikroORM's version column), closing the race between check and write.
 */
export async function expectVersion<T>(
  em: EntityManager,
  entity: VersionedEntity,
  expected: number,
  current: () => Promise<T>,
  callerId: number | null,
): Promise<void> {
  if (entity.version !== expected) throw await conflictError(em, entity, current, callerId);
}

/** Flushes, turning a lost race into CONFLICT and a unique-key clash into a field error. */
export async function flushSave<T>(
  em: EntityManager,
  entity: VersionedEntity | null,
  current: () => Promise<T>,
  uniqueFields: Record<string, { field: string; message: string }> = {},
  /** Who saves: a lost race against their own other tab is worded so. */
  callerId: number | null = null,
): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof OptimisticLockError && entity) {
      const fresh = em.fork();
      const reloaded = await fresh.findOne(
        entity.constructor as never,
        { id: (entity as unknown as { id: number }).id } as never,
      );
      throw await conflictError(fresh, (reloaded ?? entity) as VersionedEntity, current, callerId);
    }
    if (err instanceof UniqueConstraintViolationException) {
      const hit = Object.entries(uniqueFields).find(([column]) => err.message.includes(column));
      if (hit) throw badInput(hit[1].message, [hit[1]]);
      throw badInput('同じ値がすでに登録されています。', []);
    }
    throw err;
  }
}
