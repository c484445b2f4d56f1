import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import { forbidden } from '../../../platform/errors.js';
import { record } from '../../../platform/events/outbox.js';
import { checkPage } from '../../../platform/pagination.js';
import { pgArray } from '../../../platform/sql.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import { snapshot, type PostRow } from '../blog-post.queries.js';
import { BlogPostState } from '../blog.enums.js';
import { LIKERS_SHOWN } from '../blog-post.rules.js';
import { NotificationKind, notify, withdrawLike } from '../../notifications/notification.writes.js';

/** Likes, seen marks and saves: one table each, one row per (post, employee). */
export type Mark = 'like' | 'seen' | 'save';
const TABLE = { like: 'blog_like', seen: 'blog_seen', save: 'blog_save' } as const;
const EVENT = {
  like: 'blog.post.like_changed',
  seen: 'blog.post.seen_changed',
  save: 'blog.post.save_changed',
} as const;

export interface Liker {
  id: number;
  name: string;
  departmentName: string | null;
}

/** What `/api` adds to a post's record (the spec's id lists and is_save, and what a tool needs without a second call). */
export interface ApiEngagement {
  likes_employee_ids: string;
  seen_employee_ids: string;
  is_save: 0 | 1;
  comment_count: number;
  confirmed_count: number;
  is_confirmed: 0 | 1;
  /** For New! (isNewFor), not sent as is. */
  marks: { seenByMe: boolean; answeredByMe: boolean };
}

/** What a viewer sees of a post's engagement. */
export interface Engagement {
  likeCount: number;
  seenCount: number;
  /** The first LIKERS_SHOWN, in the order they liked it. */
  likers: Liker[];
  likedByMe: boolean;
  seenByMe: boolean;
  savedByMe: boolean;
  /** The viewer wrote a comment or reply on it, or confirmed reading it: New! is over for them too. */
  answeredByMe: boolean;
}

/**
 * New! (the spec: not yet opened by the viewer), only where it helps: a published post by someone
 * else, not yet opened, commented on or confirmed by the viewer. One rule for the feed and for live
 * deliveries.
 */
export function isNewFor(
  post: { state: BlogPostState; authorId: number },
  viewerId: number,
  marks: { seenByMe: boolean; answeredByMe: boolean },
): boolean {
  return post.state === BlogPostState.PUBLISHED && post.authorId !== viewerId && !marks.seenByMe && !marks.answeredByMe;
}

/**
 * Likes (where the author allows them), seen marks (New! until seen) and saves, each by the
 * signed-in employee only and only on a post they may read (BlogPostReads.readableRow: the one
 * visibility rule, so nothing of a post one may not see is written or told). Each change records its
 * event in the same transaction; setting what is already set changes and records nothing.
 */
export class BlogEngagementService {
  constructor(private readonly posts: BlogPostReads) {}

  /** Sets or clears one mark of the signed-in employee on a post; true when something changed. */
  async set(ctx: AppContext, mark: Mark, postId: number, on: boolean): Promise<boolean> {
    const user = requireUser(ctx);
    this.forget(ctx);
    await throttled(ctx, mark, user.id);
    return ctx.em.transactional(async (tx) => {
      const row = await this.posts.readableRow(ctx, tx, postId, likeLock(mark));
      if (mark === 'like' && on && !row.allow_likes) throw forbidden('この投稿はいいねを受け付けていません。');
      return this.write(tx, mark, row, user.id, on);
    });
  }

  /** The spec's toggle (REST): flips the mark and returns who holds it now, in the order they set it. */
  async toggle(ctx: AppContext, mark: 'like' | 'seen', postId: number): Promise<number[]> {
    const user = requireUser(ctx);
    this.forget(ctx);
    await throttled(ctx, mark, user.id);
    return ctx.em.transactional(async (tx) => {
      const row = await this.posts.readableRow(ctx, tx, postId, likeLock(mark));
      const [held] = await tx.execute(`select 1 from ${TABLE[mark]} where post_id = ? and employee_id = ? for update`, [
        postId,
        user.id,
      ]);
      if (mark === 'like' && !held && !row.allow_likes) throw forbidden('この投稿はいいねを受け付けていません。');
      await this.write(tx, mark, row, user.id, !held);
      return this.holders(tx, mark, postId);
    });
  }

  /** The ids of the employees holding a mark on a post the caller may read. */
  async holdersOf(ctx: AppContext, mark: 'like' | 'seen', postId: number): Promise<number[]> {
    await this.posts.readableRow(ctx, ctx.em, postId);
    return this.holders(ctx.em, mark, postId);
  }

  /** A page of who liked a post the caller may read, in the order they liked it (the card names the first LIKERS_SHOWN). */
  async likers(ctx: AppContext, postId: number, offset?: unknown, limit?: unknown): Promise<Liker[]> {
    const page = checkPage(offset, limit);
    await this.posts.readableRow(ctx, ctx.em, postId);
    return ctx.em.execute(
      `select e.id, e.name, d.name as "departmentName"
         from (select employee_id, created_at from blog_like where post_id = ? order by created_at, employee_id limit ? offset ?) l
         join employee e on e.id = l.employee_id left join department d on d.id = e.department_id
        order by l.created_at, e.id`,
      [postId, page.limit, page.offset],
    );
  }

  /** The posts the signed-in employee saved and may still read, newest save first. */
  async savedPostIds(ctx: AppContext): Promise<number[]> {
    const user = requireUser(ctx);
    const rows: { post_id: number }[] = await ctx.em.execute(
      `select post_id from blog_save where employee_id = ? order by created_at desc, post_id desc`,
      [user.id],
    );
    return this.posts.readableIds(
      ctx,
      ctx.em,
      rows.map((r) => r.post_id),
    );
  }

  /**
   * The spec's `/api` fields of posts the caller was already shown (likes_employee_ids,
   * seen_employee_ids as comma lists in the order they were set; is_save for the caller), in one statement.
   */
  async forApi(ctx: AppContext, ids: number[]): Promise<Map<number, ApiEngagement>> {
    const viewer = requireUser(ctx).id;
    if (!ids.length) return new Map();
    const rows: {
      id: number;
      likes: number[];
      seen: number[];
      saved: boolean;
      comments: number;
      confirmed: number;
      confirmed_by_me: boolean;
      answered: boolean;
    }[] = await ctx.em.execute(
      `select p.id,
                coalesce((select array_agg(l.employee_id order by l.created_at, l.employee_id) from blog_like l where l.post_id = p.id), '{}') as likes,
                coalesce((select array_agg(s.employee_id order by s.created_at, s.employee_id) from blog_seen s where s.post_id = p.id), '{}') as seen,
                exists (select 1 from blog_save v where v.post_id = p.id and v.employee_id = ?) as saved,
                (select count(*)::int from blog_comment c where c.post_id = p.id) as comments,
                (select count(*)::int from blog_read_confirmation r where r.post_id = p.id) as confirmed,
                exists (select 1 from blog_read_confirmation r where r.post_id = p.id and r.employee_id = ?) as confirmed_by_me,
                exists (select 1 from blog_comment c where c.post_id = p.id and c.author_id = ?) as answered
           from unnest(?::int[]) as p(id)`,
      [viewer, viewer, viewer, pgArray(ids)],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          likes_employee_ids: r.likes.join(','),
          seen_employee_ids: r.seen.join(','),
          is_save: r.saved ? 1 : 0,
          comment_count: r.comments,
          confirmed_count: r.confirmed,
          is_confirmed: r.confirmed_by_me ? 1 : 0,
          marks: { seenByMe: r.seen.includes(viewer), answeredByMe: r.answered || r.confirmed_by_me },
        },
      ]),
    );
  }

  /**
   * A post's counts, its likers (the heart's tooltip, in the order they liked it) and the viewer's
   * flags, batched per request: a feed page with its 速報 is one statement.
   */
  summary(ctx: AppContext, postId: number): Promise<Engagement> {
    return this.loaderOf(ctx).load(postId);
  }

  /** Drops what this request's loader read (a write follows). */
  private forget(ctx: AppContext) {
    this.loaders.get(ctx)?.clearAll();
  }

  private async write(tx: EntityManager, mark: Mark, row: PostRow, employeeId: number, on: boolean): Promise<boolean> {
    const changed: unknown[] = on
      ? await tx.execute(
          `insert into ${TABLE[mark]} (post_id, employee_id) values (?, ?) on conflict do nothing returning post_id`,
          [row.id, employeeId],
        )
      : await tx.execute(`delete from ${TABLE[mark]} where post_id = ? and employee_id = ? returning post_id`, [
          row.id,
          employeeId,
        ]);
    if (!changed.length) return false;
    // The first opening is a view for the statistics; taking the seen mark back does not undo it.
    if (mark === 'seen' && on)
      await tx.execute(`insert into blog_view (post_id, employee_id) values (?, ?) on conflict do nothing`, [
        row.id,
        employeeId,
      ]);
    // A like tells the post's author (never themselves); an unlike takes that back.
    if (mark === 'like' && on)
      await notify(tx, employeeId, [{ recipientId: row.author_id, kind: NotificationKind.LIKE, postId: row.id }]);
    if (mark === 'like' && !on) await withdrawLike(tx, employeeId, { postId: row.id });
    const likers = mark === 'like' ? await firstLikers(tx, row.id) : {};
    record(tx, {
      type: EVENT[mark],
      aggregateId: row.id,
      actorId: employeeId,
      payload: { post: snapshot(row), employeeId, on, ...likers },
    });
    await tx.flush();
    return true;
  }

  private async holders(em: EntityManager, mark: 'like' | 'seen', postId: number): Promise<number[]> {
    const rows: { employee_id: number }[] = await em.execute(
      `select employee_id from ${TABLE[mark]} where post_id = ? order by created_at, employee_id`,
      [postId],
    );
    return rows.map((r) => r.employee_id);
  }

  /**
   * The context's loader (one statement per batch). Only views of posts the viewer may read reach it
   * (the feed, 速報, the detail and live deliveries resolve their fields), so it needs no check of its
   * own. Cached for the request, so a post shown twice is read once. A live delivery never reaches
   * it (its views carry their engagement: blog.live.ts), and a write in the same request clears it
   * (forget), so no answer is stale.
   */
  private readonly loaders = new WeakMap<AppContext, DataLoader<number, Engagement>>();

  private loaderOf(ctx: AppContext) {
    let l = this.loaders.get(ctx);
    if (!l) {
      const viewer = requireUser(ctx).id;
      l = new DataLoader((ids) => summaries(ctx.em, viewer, ids));
      this.loaders.set(ctx, l);
    }
    return l;
  }
}

/**
 * Likes of one post one at a time (the post's row locked as it is read, before its like rows): each
 * like's event then carries the likers as they are after it, and the events commit in that order.
 * `no key update` serializes likes without holding up comments, whose rows only key-share the post.
 */
const likeLock = (mark: Mark) => (mark === 'like' ? 'no key update' : 'key share');

/** What a like's event carries: the count after it and the first LIKERS_SHOWN likers, in order. */
async function firstLikers(tx: EntityManager, postId: number): Promise<{ likerIds: number[]; likeCount: number }> {
  const [row]: { ids: number[]; n: number }[] = await tx.execute(
    `select array(select employee_id from blog_like where post_id = ? order by created_at, employee_id limit ${LIKERS_SHOWN}) as ids,
            (select count(*)::int from blog_like where post_id = ?) as n`,
    [postId, postId],
  );
  return { likerIds: row!.ids, likeCount: row!.n };
}

const LIKER_JSON = `json_build_object('id', e.id, 'name', e.name, 'departmentName', d.name)`;

async function summaries(em: EntityManager, viewer: number, ids: readonly number[]): Promise<Engagement[]> {
  const rows: {
    id: number;
    like_count: number;
    likers: Liker[] | null;
    liked: boolean;
    seen_count: number;
    seen: boolean;
    saved: boolean;
    answered: boolean;
  }[] = await em.execute(
    `select p.id,
            (select count(*)::int from blog_like l where l.post_id = p.id) as like_count,
            (select json_agg(${LIKER_JSON} order by f.created_at, e.id)
               from (select employee_id, created_at from blog_like l where l.post_id = p.id
                      order by created_at, employee_id limit ${LIKERS_SHOWN}) f
               join employee e on e.id = f.employee_id left join department d on d.id = e.department_id) as likers,
            exists (select 1 from blog_like l where l.post_id = p.id and l.employee_id = ?) as liked,
            (select count(*)::int from blog_seen s where s.post_id = p.id) as seen_count,
            exists (select 1 from blog_seen s where s.post_id = p.id and s.employee_id = ?) as seen,
            exists (select 1 from blog_save v where v.post_id = p.id and v.employee_id = ?) as saved,
            (exists (select 1 from blog_comment c where c.post_id = p.id and c.author_id = ?)
              or exists (select 1 from blog_read_confirmation r where r.post_id = p.id and r.employee_id = ?)) as answered
       from unnest(?::int[]) as p(id)`,
    [viewer, viewer, viewer, viewer, viewer, pgArray([...ids])],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    return {
      likeCount: r?.like_count ?? 0,
      seenCount: r?.seen_count ?? 0,
      likers: r?.likers ?? [],
      likedByMe: !!r?.liked,
      seenByMe: !!r?.seen,
      savedByMe: !!r?.saved,
      answeredByMe: !!r?.answered,
    };
  });
}

/** One post's engagement for every viewer at once (a live event's read-up): counts, likers, who has seen and saved it, its comments. */
export interface PostEngagement {
  likeCount: number;
  seenCount: number;
  commentCount: number;
  /** The first LIKERS_SHOWN, in the order they liked it. */
  likers: Liker[];
  likedBy: Set<number>;
  seenBy: Set<number>;
  savedBy: Set<number>;
  /** Who has confirmed reading it (required reading, reading/). */
  confirmedBy: Set<number>;
  /** Who has written a comment or reply on it. */
  commentedBy: Set<number>;
}

/**
 * In one statement. `asOf`: the count and first likers as a like's event carries them (names in
 * that order; an employee deleted since is left out, as their like is); read from blog_like when
 * absent. Who likes it now (likedByMe of each subscriber) is always read from blog_like.
 */
export async function postEngagement(
  em: EntityManager,
  postId: number,
  asOf?: { likerIds?: number[]; likeCount?: number },
): Promise<PostEngagement> {
  const likerIds = asOf?.likerIds?.slice(0, LIKERS_SHOWN);
  const shown = likerIds
    ? `select u.id, u.k from unnest(?::int[]) with ordinality as u(id, k) join employee e on e.id = u.id`
    : `select employee_id as id, row_number() over (order by created_at, employee_id) as k from blog_like where post_id = ? order by k limit ${LIKERS_SHOWN}`;
  const [row]: {
    likers: Liker[] | null;
    liked: number[];
    seen: number[];
    saved: number[];
    confirmed: number[];
    commenters: number[];
    comments: number;
  }[] = await em.execute(
    `with shown as (${shown})
     select (select json_agg(${LIKER_JSON} order by f.k)
               from (select id, k from shown order by k limit ${LIKERS_SHOWN}) f
               join employee e on e.id = f.id left join department d on d.id = e.department_id) as likers,
            array(select employee_id from blog_like where post_id = ?) as liked,
            array(select employee_id from blog_seen where post_id = ?) as seen, array(select employee_id from blog_save where post_id = ?) as saved,
            array(select employee_id from blog_read_confirmation where post_id = ?) as confirmed,
            array(select distinct author_id from blog_comment where post_id = ? and author_id is not null) as commenters,
            (select count(*)::int from blog_comment where post_id = ?) as comments`,
    [likerIds ? pgArray(likerIds) : postId, postId, postId, postId, postId, postId, postId],
  );
  return {
    likeCount: asOf?.likeCount ?? asOf?.likerIds?.length ?? row.liked.length,
    seenCount: row.seen.length,
    commentCount: row.comments,
    likers: row.likers ?? [],
    likedBy: new Set(row.liked),
    seenBy: new Set(row.seen),
    savedBy: new Set(row.saved),
    confirmedBy: new Set(row.confirmed),
    commentedBy: new Set(row.commenters),
  };
}

/** Likes and saves count against the person's write limit; a seen mark is set by reading, so it does not. */
async function throttled(ctx: AppContext, mark: Mark, employeeId: number): Promise<void> {
  if (mark !== 'seen') await ctx.services.writes.count(ctx, employeeId, 'like');
}
