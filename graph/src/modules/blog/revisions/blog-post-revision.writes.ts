import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../../platform/sql.js';

/**
 * Keeps the posts' current state as their revision of that version (a save's transaction calls it
 * after its write; seeders after theirs). Category and tags by name as well, the attachment by name.
 * `restoredFrom`: the revision a restore brought back.
 */
export async function recordRevisions(
  tx: EntityManager,
  postIds: number[],
  o: { savedById?: number; restoredFrom?: number } = {},
): Promise<void> {
  if (!postIds.length) return;
  await tx.execute(
    `insert into blog_post_revision
       (post_id, version, saved_by_id, saved_at, restored_from, title, content, content_html, category_id, category_name, tag_ids, tag_names,
        allow_comments, allow_likes, publish_start, publish_end, is_pin, pin_start, pin_end, is_draft, require_confirmation, attachment_name)
     select p.id, p.version, coalesce(?::int, p.updated_by_id, p.author_id), p.updated_at, ?::int, p.title, p.content, p.content_html,
            p.category_id, c.name,
            array(select t.id from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id order by lower(t.content), t.id),
            array(select t.content from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id order by lower(t.content), t.id),
            p.allow_comments, p.allow_likes, p.publish_start, p.publish_end, p.is_pin, p.pin_start, p.pin_end, p.is_draft,
            p.require_confirmation, p.attachment_name
       from blog_post p left join blog_category c on c.id = p.category_id
      where p.id = any(?::int[])
     on conflict (post_id, version) do nothing`,
    [o.savedById ?? null, o.restoredFrom ?? null, pgArray(postIds)],
  );
}
