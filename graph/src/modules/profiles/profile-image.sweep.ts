import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileStorage } from '../../lib/files/index.js';
/** How long a picture no profile shows is kept (an edit may stay open over a weekend). */
export const UNUSED_PICTURE_KEEP_DAYS = 7;

const BATCH = 200;

/**
 * Removes profile pictures no profile shows (never bound, or replaced by a later save) older than
 * `keepDays` (an edit may stay open a while): both files, then the row, a batch per transaction,
 * claimed with SKIP LOCKED so every worker may run it at once. Answers how many went.
 */
export async function sweepUnusedProfileImages(
  em: EntityManager,
  files: FileStorage,
  o: { now?: Date; keepDays?: number } = {},
): Promise<number> {
  const before = new Date((o.now ?? new Date()).getTime() - (o.keepDays ?? UNUSED_PICTURE_KEEP_DAYS) * 86_400_000);
  let removed = 0;
  for (;;) {
    const n = await em.transactional(async (tx) => {
      const rows: { key: string; thumb_key: string }[] = await tx.execute(
        `select key, thumb_key from profile_image where profile_id is null and created_at < ? order by created_at limit ${BATCH} for update skip locked`,
        [before],
      );
      for (const r of rows) {
        await files.delete(r.key);
        await files.delete(r.thumb_key);
      }
      if (rows.length)
        await tx.execute(`delete from profile_image where key = any(?::text[])`, [
          `{${rows.map((r) => r.key).join(',')}}`,
        ]);
      return rows.length;
    });
    removed += n;
    if (n < BATCH) return removed;
  }
}
