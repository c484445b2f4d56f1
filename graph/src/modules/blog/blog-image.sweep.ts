import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileStorage } from '../../lib/files/index.js';

/**
 * How long a body picture no post shows is kept: an editor may upload pictures and save days later
 * (a post left open over a weekend); after this, it is nobody's and goes.
 */
export const UNUSED_IMAGE_KEEP_DAYS = 7;
/** Rows taken per transaction, so a backlog never holds many locks or one long transaction. */
const BATCH = 200;

/**
 * Removes body pictures no post shows (never bound, unbound by an edit, or left by a deleted post)
 * that are older than `keepDays`: the files first, then their rows, in one transaction per batch.
 * The rows are claimed with SKIP LOCKED, so every worker may run it at once and each picture goes
 * once; a crash between the two leaves a row whose file is gone, which the next sweep removes.
 * Answers how many pictures went.
 */
export async function sweepUnusedBlogImages(
  em: EntityManager,
  files: FileStorage,
  o: { now?: Date; keepDays?: number } = {},
): Promise<number> {
  const before = new Date((o.now ?? new Date()).getTime() - (o.keepDays ?? UNUSED_IMAGE_KEEP_DAYS) * 86_400_000);
  let removed = 0;
  for (;;) {
    const keys = await em.transactional(async (tx) => {
      const rows: { key: string }[] = await tx.execute(
        `select key from blog_image where post_id is null and created_at < ? order by created_at limit ${BATCH} for update skip locked`,
        [before],
      );
      if (!rows.length) return [];
      for (const r of rows) await files.delete(r.key);
      await tx.execute(`delete from blog_image where key = any(?::text[])`, [`{${rows.map((r) => r.key).join(',')}}`]);
      return rows;
    });
    removed += keys.length;
    if (keys.length < BATCH) return removed;
  }
}
