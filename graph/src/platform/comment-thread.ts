import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from './errors.js';
import { badCursor, decodeCursor, encodeCursor } from './cursor.js';
import { checkLimit } from './pagination.js';
import { pgArray } from './sql.js';
import { checkId, isDbId } from './validation.js';

export const MAX_COMMENT_LENGTH = 2000;
/** Top-level comments per page (GraphQL `limit`, REST `limit`): by default, and at most. */
export const COMMENT_PAGE = { fallback: 20, max: 100 } as const;
/** Replies shown with each comment of a page (oldest first); the rest come from replies(). */
export const REPLIES_SHOWN = 10;
/** Replies per page of replies(). */
export const REPLY_PAGE = { fallback: 50, max: 100 } as const;

/** What every comment row has, whatever it comments on. */
export interface ThreadRow {
  id: number;
  author_id: number | null;
  parent_id: number | null;
  /** created_at in whole microseconds since the epoch (exact, unlike a Date): the page key with the id. */
  at_us: string;
}

/**
 * Where a kind of comment lives: its table (alias `c`, with `id`, `parent_id`, `author_id`,
 * `created_at` and the column naming what is commented on) and the SELECT of one row (from `c` and
 * its joins, with `at_us`).
 */
export interface ThreadSql {
  table: string;
  /** The column naming what the comment is on (`post_id`, `profile_id`). */
  subject: string;
  select: string;
}

/** Oldest first, after the cursor's (created_at, id) when there is one. */
const AFTER_KEY = `and (c.created_at, c.id) > ('epoch'::timestamptz + ?::bigint * interval '1 microsecond', ?::int)`;
const ORDER = `order by c.created_at, c.id`;

/** The cursor of a page ending at `row`; `tag` tells the top-level comments ('c') from the replies of one ('r'). */
const cursorAt = (tag: string, row: ThreadRow) => encodeCursor(tag, [row.at_us, row.id]);

function keyOf(tag: string, after: string | null | undefined): [string, number] | null {
  const cursor = decodeCursor(after, [tag], 2);
  if (!cursor) return null;
  const [at, id] = [cursor.key[0]!, Number(cursor.key[1])];
  if (!/^\d{1,18}$/.test(at) || !isDbId(id)) throw badCursor();
  return [at, id];
}

/** A top-level comment with its first replies and its reply count, as rows. */
export interface ThreadItem<R> {
  row: R;
  replies: R[];
  replyCount: number;
}

/**
 * Comments with one level of replies, paged oldest first by (created_at, id): the blog's posts' and
 * the profiles' comments. The services keep their own rules (who reads, who writes, who deletes);
 * this is how a thread is stored and read.
 */
export class CommentThread<R extends ThreadRow> {
  constructor(private readonly sql: ThreadSql) {}

  /** One row by id (undefined when there is none); `lock`, e.g. `for update of c`, in a write's transaction. */
  async row(em: EntityManager, id: number, lock = ''): Promise<R | undefined> {
    const [row]: R[] = await em.execute(`${this.sql.select} where c.id = ? ${lock}`, [id]);
    return row;
  }

  /** A page of top-level comments on `subjectId`, each with its first REPLIES_SHOWN replies and its reply count. */
  async page(
    em: EntityManager,
    subjectId: number,
    after?: string | null,
    limit?: unknown,
  ): Promise<{ items: ThreadItem<R>[]; nextCursor: string | null }> {
    const size = checkLimit(limit, COMMENT_PAGE.fallback, COMMENT_PAGE.max);
    const key = keyOf('c', after);
    const rows: R[] = await em.execute(
      `${this.sql.select} where c.${this.sql.subject} = ? and c.parent_id is null ${key ? AFTER_KEY : ''} ${ORDER} limit ?`,
      [subjectId, ...(key ?? []), size + 1],
    );
    const more = rows.length > size;
    const items = rows.slice(0, size).map((row) => ({ row, replies: [] as R[], replyCount: 0 }));
    await this.attachReplies(em, items);
    return { items, nextCursor: more ? cursorAt('c', rows[size - 1]!) : null };
  }

  /** A page of the replies under `parentId` (a top-level comment), oldest first. */
  async replies(
    em: EntityManager,
    parentId: number,
    after?: string | null,
    limit?: unknown,
  ): Promise<{ items: R[]; nextCursor: string | null }> {
    const size = checkLimit(limit, REPLY_PAGE.fallback, REPLY_PAGE.max);
    const key = keyOf('r', after);
    const rows: R[] = await em.execute(
      `${this.sql.select} where c.parent_id = ? ${key ? AFTER_KEY : ''} ${ORDER} limit ?`,
      [parentId, ...(key ?? []), size + 1],
    );
    const more = rows.length > size;
    return { items: rows.slice(0, size), nextCursor: more ? cursorAt('r', rows[size - 1]!) : null };
  }

  /** Each comment's first REPLIES_SHOWN replies and its reply count: two statements for the page. */
  private async attachReplies(em: EntityManager, top: ThreadItem<R>[]): Promise<void> {
    if (top.length === 0) return;
    const ids = pgArray(top.map((c) => c.row.id));
    const [replies, counts] = await Promise.all([
      em.execute<R[]>(
        `select r.* from unnest(?::int[]) as top_(id) cross join lateral (${this.sql.select} where c.parent_id = top_.id ${ORDER} limit ${REPLIES_SHOWN}) r`,
        [ids],
      ),
      em.execute<{ parent_id: number; n: number }[]>(
        `select parent_id, count(*)::int as n from ${this.sql.table} where parent_id = any(?::int[]) group by parent_id`,
        [ids],
      ),
    ]);
    const byId = new Map(top.map((c) => [c.row.id, c]));
    for (const r of replies.sort((a, b) =>
      a.at_us === b.at_us ? a.id - b.id : BigInt(a.at_us) < BigInt(b.at_us) ? -1 : 1,
    ))
      byId.get(r.parent_id!)?.replies.push(r);
    for (const c of counts) byId.get(c.parent_id)!.replyCount = c.n;
  }

  /**
   * The top-level comment a reply attaches to (a reply to a reply attaches to its parent), on the
   * same subject, and the author of the comment replied to (they are the one told of the reply).
   * Inside a transaction the parent is locked against deletion until the reply commits.
   */
  async parentOf(em: EntityManager, subjectId: number, parentId: number): Promise<ThreadParent> {
    checkId(parentId, '返信先のコメント');
    const [parent]: { id: number; parent_id: number | null; author_id: number | null }[] = await em.execute(
      `select id, parent_id, author_id from ${this.sql.table} where id = ? and ${this.sql.subject} = ? ${em.getTransactionContext() ? 'for key share' : ''}`,
      [parentId, subjectId],
    );
    if (!parent)
      throw badInput('返信先のコメントが見つかりません。', [
        { field: 'parentId', message: '返信先のコメントが見つかりません。' },
      ]);
    return { id: parent.parent_id ?? parent.id, repliedTo: parent.author_id };
  }

  /** Comment counts (replies included) of several subjects, in their order. */
  async counts(em: EntityManager, subjectIds: readonly number[]): Promise<number[]> {
    const s = this.sql.subject;
    const rows: { id: number; n: number }[] = await em.execute(
      `select ${s} as id, count(*)::int as n from ${this.sql.table} where ${s} = any(?::int[]) group by ${s}`,
      [pgArray([...subjectIds])],
    );
    const by = new Map(rows.map((r) => [r.id, r.n]));
    return subjectIds.map((id) => by.get(id) ?? 0);
  }
}

/** A comment's author as every thread shows them: 'Unknown' once their employee record is gone (the spec's fallback). */
export function commentAuthor(r: {
  author_id: number | null;
  author_name: string | null;
  department_name: string | null;
}) {
  return { id: r.author_id, name: r.author_name?.trim() || 'Unknown', departmentName: r.department_name };
}

export interface ThreadParent {
  /** The top-level comment the reply attaches to. */
  id: number;
  /** The author of the comment replied to (null: gone). */
  repliedTo: number | null;
}

/** Non-blank after trim (the spec's 'Comment/Reply không được để trống'), at most 2000 characters; stored trimmed. */
export function checkCommentContent(value: unknown, reply: boolean): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const refuse = (message: string) => badInput(message, [{ field: 'content', message }]);
  if (!text) throw refuse(reply ? '返信を入力してください。' : 'コメントを入力してください。');
  if ([...text].length > MAX_COMMENT_LENGTH)
    throw refuse(`${reply ? '返信' : 'コメント'}は${MAX_COMMENT_LENGTH}文字以内で入力してください。`);
  return text;
}
