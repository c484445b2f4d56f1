import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import type { CurrentUser } from '../auth/session.service.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, forbidden, notFound } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, checkSearchText, isDbId } from '../../platform/validation.js';
import { checkPage, MAX_PAGE_SIZE } from '../../platform/pagination.js';
import { escapeLike } from '../../platform/list-query.js';
import { expectVersion } from '../../platform/versioning.js';
import { isBlogAdmin } from './blog.enums.js';
import { blogInput } from './blog.errors.js';
import type { BlogTagView } from './blog-tag.types.js';

export const TAG_MAX_LENGTH = 50;

interface TagRow {
  id: number;
  content: string;
  created_by_id: number | null;
  created_by_name: string | null;
  updated_at: Date;
  updated_by_id: number | null;
  version: number;
}

const SELECT = `select t.id, t.content, t.created_by_id, e.name as created_by_name, t.updated_at, t.updated_by_id, t.version
                  from blog_tag t left join employee e on e.id = t.created_by_id`;

/** The condition on tags (`t`) holding `query`, a substring whatever its case. */
function holding(query: string | null | undefined): { sql: string; params: string[] } {
  const q = query?.trim() ?? '';
  checkSearchText(q, 'query', 'タグ');
  return q ? { sql: 'where t.content ilike ?', params: [`%${escapeLike(q)}%`] } : { sql: '', params: [] };
}

/** The spec's tag rules: content non-empty once trimmed (and at most 50 characters, unique whatever its case). */
function checkContent(value: unknown): string {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw blogInput('TAG_CONTENT_EMPTY', 'タグの内容は文字列で入力してください。', 'content');
  }
  const content = (value ?? '').trim();
  if (!content) throw blogInput('TAG_CONTENT_EMPTY', 'タグの内容を入力してください。', 'content');
  if ([...content].length > TAG_MAX_LENGTH)
    throw blogInput('TAG_CONTENT_TOO_LONG', `タグの内容は${TAG_MAX_LENGTH}文字以内で入力してください。`, 'content');
  return content;
}

const TAKEN = () => blogInput('TAG_CONTENT_TAKEN', 'このタグはすでに登録されています。', 'content');

/**
 * Blog tags, company-wide by design: one list for every category, so the same word is one tag
 * everywhere. Every signed-in employee reads them and creates them (the tag dialog of the edit page);
 * a tag is renamed or deleted by whoever created it, or by 管理者 and システム管理者. Deleting a tag
 * takes it off the posts that carried it. Who created a tag is told to its creator, to 管理者 and
 * システム管理者, and to those who may read a post carrying it: a tag made for a restricted
 * category names no one to people outside it.
 */
export class BlogTagService {
  /**
   * A page of the tags in content order (the tag dialog's, the feed filter's, `/api`'s), those holding
   * `query` only when one is given; `total` counts them all. Paged like every list that grows: a
   * company's tags are not bounded.
   */
  async list(
    ctx: AppContext,
    q: { query?: string | null; offset?: unknown; limit?: unknown } = {},
  ): Promise<{ items: BlogTagView[]; total: number }> {
    const user = requireUser(ctx);
    const page = checkPage(q.offset, q.limit ?? MAX_PAGE_SIZE);
    const where = holding(q.query);
    const rows: (TagRow & { total: number })[] = await ctx.em.execute(
      `${SELECT.replace('select ', 'select count(*) over ()::int as total, ')} ${where.sql}
        order by lower(t.content), t.id offset ? limit ?`,
      [...where.params, page.offset, page.limit],
    );
    // Past the last tag the window counts nothing: counted on its own then.
    const total = rows[0]?.total ?? (page.offset > 0 ? await this.count(ctx, q.query) : 0);
    const seen = await this.creatorsShown(ctx, user, rows);
    return { items: rows.map((r) => view(user, r, seen)), total };
  }

  /** How many tags hold `query` (all of them without one). */
  async count(ctx: AppContext, query?: string | null): Promise<number> {
    requireUser(ctx);
    const where = holding(query);
    const [row]: { n: number }[] = await ctx.em.execute(
      `select count(*)::int as n from blog_tag t ${where.sql}`,
      where.params,
    );
    return row!.n;
  }

  async get(ctx: AppContext, id: number): Promise<BlogTagView> {
    const user = requireUser(ctx);
    checkId(id, 'タグ');
    const [row]: TagRow[] = await ctx.em.execute(`${SELECT} where t.id = ?`, [id]);
    if (!row) throw notFound('タグ');
    return view(user, row, await this.creatorsShown(ctx, user, [row]));
  }

  /** Of `rows`, the tags whose creator this viewer is told besides their own (all, for 管理者 and システム管理者). */
  private async creatorsShown(ctx: AppContext, user: CurrentUser, rows: TagRow[]): Promise<Set<number> | 'all'> {
    if (isBlogAdmin(user.role)) return 'all';
    const others = rows.filter((r) => r.created_by_id !== null && r.created_by_id !== user.id).map((r) => r.id);
    return others.length ? ctx.services.blog.posts.tagsOnReadablePosts(ctx, others) : new Set();
  }

  async create(ctx: AppContext, input: { content?: unknown }): Promise<BlogTagView> {
    const user = requireUser(ctx);
    const content = checkContent(input?.content);
    const id = await ctx.em.transactional(async (tx) => {
      const [row]: { id: number; version: number }[] = await tx.execute(
        `insert into blog_tag (content, created_by_id, updated_by_id) values (?, ?, ?) on conflict do nothing returning id, version`,
        [content, user.id, user.id],
      );
      if (!row) throw TAKEN();
      record(tx, {
        type: 'blog.tag.created',
        aggregateId: row.id,
        actorId: user.id,
        payload: { tag: { id: row.id, content, version: row.version } },
      });
      return row.id;
    });
    return this.get(ctx, id);
  }

  async update(ctx: AppContext, id: number, input: { content?: unknown; version?: unknown }): Promise<BlogTagView> {
    const user = requireUser(ctx);
    checkId(id, 'タグ');
    const content = checkContent(input?.content);
    const version = input?.version;
    if (version !== undefined && version !== null && !isDbId(version))
      throw badInput('version が正しくありません。', [{ field: 'version', message: '正の整数' }]);
    await ctx.em.transactional(async (tx) => {
      const before = await this.editable(tx, user, id);
      if (typeof version === 'number') {
        await expectVersion(
          tx,
          { version: before.version, updatedAt: before.updated_at, updatedById: before.updated_by_id },
          version,
          () => this.get(ctx, id),
          ctx.user?.id ?? null,
        );
      }
      if (before.content === content) return;
      const [clash] = await tx.execute(`select 1 from blog_tag where lower(content) = lower(?) and id <> ?`, [
        content,
        id,
      ]);
      if (clash) throw TAKEN();
      const [row] = await tx
        .execute<{ version: number }[]>(
          `update blog_tag set content = ?, updated_at = clock_timestamp(), updated_by_id = ?, version = version + 1 where id = ? returning version`,
          [content, user.id, id],
        )
        .catch((err: unknown) => {
          throw (err as { code?: string }).code === '23505' ? TAKEN() : err; // a rename to the same content committed in between
        });
      record(tx, {
        type: 'blog.tag.updated',
        aggregateId: id,
        actorId: user.id,
        payload: { tag: { id, content, version: row!.version }, previousContent: before.content },
      });
    });
    return this.get(ctx, id);
  }

  /**
   * Deletes the selected tags (the dialog's delete; at least one). Each must exist and be the
   * caller's to delete, or nothing is deleted. The posts that carried them lose them; their
   * version stays (their own fields did not change), and a save from an older form naming a
   * deleted tag is refused with TAG_UNKNOWN.
   */
  async delete(ctx: AppContext, ids: unknown): Promise<number[]> {
    const user = requireUser(ctx);
    if (!Array.isArray(ids) || ids.length === 0)
      throw blogInput('TAGS_NONE_SELECTED', '削除するタグを1つ以上選択してください。', 'ids');
    if (!ids.every(isDbId)) throw badInput('タグIDが正しくありません。', [{ field: 'ids', message: '正の整数の配列' }]);
    const unique = [...new Set(ids as number[])];
    await ctx.em.transactional(async (tx) => {
      const rows: (TagRow & { post_ids: number[] })[] = await tx.execute(
        `select t.id, t.content, t.created_by_id, t.version, array(select pt.post_id from blog_post_tag pt where pt.tag_id = t.id order by pt.post_id) as post_ids
           from blog_tag t where t.id = any(?::int[]) order by t.id for update of t`,
        [pgArray(unique)],
      );
      if (rows.length !== unique.length) throw notFound('タグ');
      if (rows.some((r) => !mayEdit(user, r)))
        throw forbidden('タグを変更・削除できるのは作成者と管理者・システム管理者だけです。');
      await tx.execute(`delete from blog_tag where id = any(?::int[])`, [pgArray(unique)]);
      for (const r of rows) {
        record(tx, {
          type: 'blog.tag.deleted',
          aggregateId: r.id,
          actorId: user.id,
          payload: { tag: { id: r.id, content: r.content, version: r.version }, postIds: r.post_ids },
        });
      }
    });
    return unique;
  }

  /**
   * The tags a post is to carry: every id must name an existing tag (TAG_UNKNOWN otherwise, e.g.
   * one deleted since the form was opened).
   */
  async checkExisting(tx: EntityManager, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const [row]: { missing: number[] }[] = await tx.execute(
      `select array(select x from unnest(?::int[]) x where not exists (select 1 from blog_tag t where t.id = x)) as missing`,
      [pgArray(ids)],
    );
    if (row!.missing.length)
      throw blogInput('TAG_UNKNOWN', `存在しないタグが含まれています（ID: ${row!.missing.join(', ')}）。`, 'tagIds');
  }

  private async editable(tx: EntityManager, user: CurrentUser, id: number): Promise<TagRow> {
    const [row]: TagRow[] = await tx.execute(`${SELECT} where t.id = ? for update of t`, [id]);
    if (!row) throw notFound('タグ');
    if (!mayEdit(user, row)) throw forbidden('タグを変更・削除できるのは作成者と管理者・システム管理者だけです。');
    return row;
  }
}

const mayEdit = (user: CurrentUser, r: Pick<TagRow, 'created_by_id'>) =>
  isBlogAdmin(user.role) || r.created_by_id === user.id;

function view(user: CurrentUser, r: TagRow, shown: Set<number> | 'all'): BlogTagView {
  const told = shown === 'all' || r.created_by_id === user.id || shown.has(r.id);
  return {
    id: r.id,
    content: r.content,
    createdBy: told && r.created_by_id !== null ? { id: r.created_by_id, name: r.created_by_name ?? '' } : null,
    canEdit: mayEdit(user, r),
    version: r.version,
  };
}

/** The spec's `/api` shape of a tag. */
export function toApiTag(t: BlogTagView) {
  return {
    tag_id: t.id,
    tag_content: t.content,
    created_by: t.createdBy?.id ?? null,
    can_edit: t.canEdit,
    version: t.version,
  };
}
