import { badCursor } from '../../platform/cursor.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { checkPage } from '../../platform/pagination.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, isDbId } from '../../platform/validation.js';
import type { BlogPostReads } from '../blog/blog-post.reads.js';
import { changed, type NotificationKind } from './notification.writes.js';
import { EXCERPT_LENGTH, groupPage, markGroupsRead, unreadGroups, type GroupRow } from './notification.groups.js';

export const DEFAULT_NOTIFICATION_PAGE = 20;

export interface NotificationActorView {
  id: number;
  name: string;
}

/** One item of the bell: a group of notifications (notification.groups.ts), told by its newest. */
export interface NotificationView {
  id: number;
  kind: NotificationKind;
  /** The newest actor. */
  actor: NotificationActorView | null;
  /** The first few actors, newest first, each once. */
  actors: NotificationActorView[];
  actorCount: number;
  /** What it is about: a post (with its title), or the recipient's profile. */
  postId: number | null;
  postTitle: string | null;
  profileId: number | null;
  commentId: number | null;
  excerpt: string | null;
  createdAt: Date;
  read: boolean;
}

export interface NotificationPage {
  items: NotificationView[];
  nextCursor: string | null;
  unreadCount: number;
}

/**
 * The signed-in employee's notifications (the header's bell): about their posts and their profile.
 * Only the recipient reads or marks their own; a notification about a post they may no longer see
 * (moved out of its category, the post unpublished or expired) is neither listed nor counted — the
 * blog's one visibility rule (BlogPostReads.readableIds) decides, at every read and at every live
 * delivery. A profile is seen by everyone signed in.
 */
export class NotificationService {
  constructor(private readonly posts: BlogPostReads) {}

  /** A page of the viewer's bell, newest first: grouped items (notification.groups.ts), with their unread count. */
  async list(ctx: AppContext, after?: string | null, limit?: unknown): Promise<NotificationPage> {
    const viewer = requireUser(ctx).id;
    const page = checkPage(0, limit ?? DEFAULT_NOTIFICATION_PAGE);
    const before = decodeCursor(after);
    const visible = await this.visiblePosts(ctx, ctx.em, viewer);
    const rows = await groupPage(ctx.em, viewer, visible, before, page.limit + 1);
    const more = rows.length > page.limit;
    const items = rows.slice(0, page.limit).map(toView);
    return {
      items,
      nextCursor: more ? String(items.at(-1)!.id) : null,
      unreadCount: await unreadGroups(ctx.em, viewer, visible),
    };
  }

  /** How many of the viewer's items (groups about posts they may see) have an unread part. */
  async unreadCount(ctx: AppContext, em: EntityManager = ctx.em): Promise<number> {
    const viewer = requireUser(ctx).id;
    return unreadGroups(em, viewer, await this.visiblePosts(ctx, em, viewer, true));
  }

  /** Marks the viewer's items read, each its whole group (NOT_FOUND if one is not theirs); answers the unread count. */
  async markRead(ctx: AppContext, ids: number[]): Promise<number> {
    const viewer = requireUser(ctx).id;
    if (!ids.length) throw badInput('既読にする通知を指定してください。', [{ field: 'ids', message: '通知IDの一覧' }]);
    if (ids.length > 200)
      throw badInput('一度に既読にできる通知は200件までです。', [{ field: 'ids', message: '200件まで' }]);
    for (const id of ids) checkId(id, '通知');
    await ctx.em.transactional(async (tx) => {
      const mine: { id: number }[] = await tx.execute(
        `select id from notification where id = any(?::int[]) and recipient_id = ?`,
        [pgArray(ids), viewer],
      );
      if (mine.length !== new Set(ids).size) throw notFound('通知');
      if ((await markGroupsRead(tx, viewer, ids)).length) await this.record(tx, viewer);
    });
    return this.unreadCount(ctx);
  }

  /** Marks every notification of the viewer read; answers the unread count (0). */
  async markAllRead(ctx: AppContext): Promise<number> {
    const viewer = requireUser(ctx).id;
    await ctx.em.transactional(async (tx) => {
      const done: unknown[] = await tx.execute(
        `update notification set read_at = now() where recipient_id = ? and read_at is null returning id`,
        [viewer],
      );
      if (done.length) await this.record(tx, viewer);
    });
    return this.unreadCount(ctx);
  }

  /**
   * Whether a change on the viewer's bell is told to them now (live delivery): a notification about
   * a post is told only while they may see the post; a change of read marks always (their own).
   */
  async mayTell(ctx: AppContext, em: EntityManager, postId: number | null): Promise<boolean> {
    if (postId === null) return true;
    return (await this.posts.readableIds(ctx, em, [postId])).length > 0;
  }

  private async record(tx: EntityManager, viewer: number) {
    changed(tx, viewer, [viewer], null);
    await tx.flush();
  }

  /** The posts the viewer's notifications (or unread ones) are about that the viewer may see now. */
  private async visiblePosts(
    ctx: AppContext,
    em: EntityManager,
    viewer: number,
    unreadOnly = false,
  ): Promise<number[]> {
    const rows: { post_id: number }[] = await em.execute(
      `select distinct post_id from notification where recipient_id = ? and post_id is not null ${unreadOnly ? 'and read_at is null' : ''}`,
      [viewer],
    );
    return this.posts.readableIds(
      ctx,
      em,
      rows.map((r) => r.post_id),
    );
  }
}

/** The cursor is the id of the last notification of the previous page (ids grow with time). */
function decodeCursor(after: string | null | undefined): number | null {
  if (after === null || after === undefined || after === '') return null;
  const n = Number(after);
  if (!/^\d+$/.test(String(after)) || !isDbId(n)) throw badCursor();
  return n;
}

function toView(r: GroupRow): NotificationView {
  const excerpt =
    r.excerpt === null
      ? null
      : [...r.excerpt].length > EXCERPT_LENGTH
        ? `${[...r.excerpt].slice(0, EXCERPT_LENGTH).join('')}…`
        : r.excerpt;
  const actors = (r.actors ?? []).map((a) => ({ id: a.id, name: a.name?.trim() || 'Unknown' }));
  return {
    id: r.id,
    kind: r.kind,
    actor: actors[0] ?? null,
    actors,
    actorCount: r.actor_count,
    postId: r.post_id,
    postTitle: r.post_title,
    profileId: r.profile_id,
    commentId: r.comment_id,
    excerpt,
    createdAt: new Date(r.created_at),
    read: !r.unread,
  };
}
