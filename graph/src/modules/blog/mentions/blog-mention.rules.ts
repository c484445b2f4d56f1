import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../../platform/sql.js';
import { NotificationKind, notify } from '../../notifications/notification.writes.js';
import { IN_CATEGORY } from '../blog-category.service.js';
import { stateOf, tokyoToday } from '../blog-post.rules.js';
import { windowOf, type PostRow } from '../blog-post.queries.js';
import { BlogPostState } from '../blog.enums.js';
import { blogInput } from '../blog.errors.js';

/** How many people one post or comment may mention. */
export const MAX_MENTIONS = 20;

/** Who may read what is written: the post's category's members and its author. */
export interface Audience {
  categoryId: number | null;
  authorId: number;
}

/**
 * The one rule of who may be mentioned: an active employee who may read the post (a member of its
 * category, or its author). Anyone else is refused by name, so nobody is told of a post they may not
 * read and the writer knows why; nothing is saved. Answers the ids, each once.
 */
export async function checkMentions(
  em: EntityManager,
  audience: Audience,
  mentioned: number[],
  field: string,
): Promise<number[]> {
  const ids = [...new Set(mentioned)];
  if (!ids.length) return [];
  if (ids.length > MAX_MENTIONS)
    throw blogInput('MENTION_TOO_MANY', `メンションは${MAX_MENTIONS}人までです（${ids.length}人）。`, field);
  const rows: { id: number; name: string; active: boolean; reader: boolean }[] = await em.execute(
    `select e.id, e.name, e.status = 'ACTIVE' as active, (e.id = ? or coalesce(${IN_CATEGORY}, false)) as reader
       from employee e where e.id = any(?::int[])`,
    [audience.authorId, audience.categoryId, audience.categoryId, pgArray(ids)],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) throw blogInput('MENTION_UNKNOWN', `メンションした社員（ID ${id}）が見つかりません。`, field);
    if (!r.active)
      throw blogInput('MENTION_NOT_READER', `${r.name}さんは退職しているため、メンションできません。`, field);
    if (!r.reader)
      throw blogInput(
        'MENTION_NOT_READER',
        audience.categoryId === null
          ? `カテゴリを選ぶまで、${r.name}さんをメンションできません（カテゴリのメンバーだけが投稿を読めます）。`
          : `${r.name}さんはこのカテゴリのメンバーではなく投稿を読めないため、メンションできません。`,
        field,
      );
  }
  return ids;
}

/**
 * A comment's mentions: each must be written in its text as `@` and the person's name (that is
 * what readers see and what the app links), and be allowed by checkMentions.
 */
export async function checkCommentMentions(
  em: EntityManager,
  audience: Audience,
  text: string,
  mentioned: number[],
): Promise<number[]> {
  const ids = await checkMentions(em, audience, mentioned, 'mentionIds');
  if (!ids.length) return [];
  const names: { id: number; name: string }[] = await em.execute(
    `select id, name from employee where id = any(?::int[])`,
    [pgArray(ids)],
  );
  const missing = names.find((n) => !text.includes(`@${n.name}`));
  if (missing)
    throw blogInput(
      'MENTION_NOT_IN_TEXT',
      `本文に「@${missing.name}」がありません（メンションする人は本文に @氏名 で書いてください）。`,
      'mentionIds',
    );
  return ids;
}

/** The mentions a comment's new text still writes out (an edit that gives no list keeps these). */
export async function mentionsStillWritten(em: EntityManager, text: string, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const names: { id: number; name: string }[] = await em.execute(
    `select id, name from employee where id = any(?::int[])`,
    [pgArray(ids)],
  );
  return ids.filter((id) => names.some((n) => n.id === id && text.includes(`@${n.name}`)));
}

/**
 * Tells each person a post mentions, once, when they can read it: at the save that publishes it
 * (or adds them), and at the scheduler's firing of its publish start (blog-post.schedule.ts). A
 * draft or scheduled post tells nobody yet.
 */
export async function notifyPostMentions(tx: EntityManager, post: PostRow, today = tokyoToday()): Promise<void> {
  if (!post.mentions.length || stateOf(windowOf(post), today) !== BlogPostState.PUBLISHED) return;
  const told: { recipient_id: number }[] = await tx.execute(
    `select recipient_id from notification where post_id = ? and kind = 'MENTION' and comment_id is null`,
    [post.id],
  );
  const already = new Set(told.map((t) => t.recipient_id));
  await notify(
    tx,
    post.author_id,
    post.mentions
      .filter((m) => !already.has(m.id))
      .map((m) => ({ recipientId: m.id, kind: NotificationKind.MENTION, postId: post.id })),
  );
}

/** Tells the people a comment mentions, each once for that comment (edits that drop and add them again tell no one twice). */
export async function notifyCommentMentions(
  tx: EntityManager,
  actorId: number,
  about: { postId: number; commentId: number },
  mentioned: number[],
): Promise<void> {
  if (!mentioned.length) return;
  const told: { recipient_id: number }[] = await tx.execute(
    `select recipient_id from notification where comment_id = ? and kind = 'MENTION'`,
    [about.commentId],
  );
  const ids = mentioned.filter((id) => !told.some((t) => t.recipient_id === id));
  await notify(
    tx,
    actorId,
    ids.map((id) => ({ recipientId: id, kind: NotificationKind.MENTION, ...about })),
  );
}
