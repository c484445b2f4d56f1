import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { checkId } from '../../platform/validation.js';
import { CommentThread, checkCommentContent, commentAuthor, type ThreadRow } from '../../platform/comment-thread.js';
import { commentRecipients, notify, withdrawAbout } from '../notifications/notification.writes.js';
import type { ProfileService } from './profile.service.js';
import type { ProfileComment, ProfileCommentPage, ProfileCommentReplyPage } from './profile.types.js';

interface CommentRow extends ThreadRow {
  profile_id: number;
  owner_id: number;
  author_name: string | null;
  department_name: string | null;
  content: string;
  created_at: Date;
  edited_at: Date | null;
}

const THREAD = new CommentThread<CommentRow>({
  table: 'profile_comment',
  subject: 'profile_id',
  select: `select c.id, c.profile_id, p.employee_id as owner_id, c.author_id, e.name as author_name, d.name as department_name, c.parent_id, c.content, c.created_at, c.edited_at,
       (extract(epoch from c.created_at) * 1000000)::bigint::text as at_us
  from profile_comment c join profile p on p.id = c.profile_id
  left join employee e on e.id = c.author_id left join department d on d.id = e.department_id`,
});

export interface NewProfileComment {
  profileId: number;
  content: unknown;
  parentId?: number | null;
}

/**
 * Comments and one level of replies on profiles: every signed-in employee reads and writes them
 * (the spec's "anyone logged in may like and comment on profiles"); only its author edits a
 * comment's text; the comment's author and the profile's owner delete one (its replies go with it).
 * Comments carry no attachment.
 */
export class ProfileCommentService {
  constructor(private readonly profiles: ProfileService) {}

  async list(ctx: AppContext, profileId: number, after?: string | null, limit?: unknown): Promise<ProfileCommentPage> {
    const viewer = requireUser(ctx).id;
    checkId(profileId, 'プロフィール');
    await this.profiles.ownerOf(ctx.em, profileId);
    const p = await THREAD.page(ctx.em, profileId, after, limit);
    const [totalCount] = await THREAD.counts(ctx.em, [profileId]);
    return {
      items: p.items.map((i) => ({
        ...toComment(i.row, viewer),
        replies: i.replies.map((r) => toComment(r, viewer)),
        replyCount: i.replyCount,
      })),
      nextCursor: p.nextCursor,
      totalCount: totalCount!,
    };
  }

  async replies(
    ctx: AppContext,
    commentId: number,
    after?: string | null,
    limit?: unknown,
  ): Promise<ProfileCommentReplyPage> {
    const viewer = requireUser(ctx).id;
    const row = await this.row(ctx, commentId);
    const p = await THREAD.replies(ctx.em, row.parent_id ?? row.id, after, limit);
    return { items: p.items.map((r) => toComment(r, viewer)), nextCursor: p.nextCursor };
  }

  async get(ctx: AppContext, id: number): Promise<ProfileComment> {
    return toComment(await this.row(ctx, id), requireUser(ctx).id);
  }

  async add(ctx: AppContext, input: NewProfileComment): Promise<ProfileComment> {
    const user = requireUser(ctx);
    checkId(input.profileId, 'プロフィール');
    await ctx.services.writes.count(ctx, user.id, 'comment');
    const reply = input.parentId !== null && input.parentId !== undefined;
    const content = checkCommentContent(input.content, reply);
    const id = await ctx.em.transactional(async (tx) => {
      const owner = await this.profiles.ownerOf(tx, input.profileId);
      const parent = reply ? await THREAD.parentOf(tx, input.profileId, input.parentId!) : null;
      const [{ id }]: { id: number }[] = await tx.execute(
        `insert into profile_comment (profile_id, author_id, parent_id, content) values (?, ?, ?, ?) returning id`,
        [input.profileId, user.id, parent?.id ?? null, content],
      );
      record(tx, {
        type: 'profile.comment.added',
        aggregateId: input.profileId,
        actorId: user.id,
        payload: {
          profile: { id: input.profileId, employeeId: owner },
          commentId: id,
          parentId: parent?.id ?? null,
          authorId: user.id,
        },
      });
      await notify(
        tx,
        user.id,
        commentRecipients(owner, parent?.repliedTo, { profileId: input.profileId, profileCommentId: id }),
      );
      await tx.flush();
      return id;
    });
    return this.get(ctx, id);
  }

  /** The comment's author changes its text, then marked edited; the same text again changes and records nothing. */
  async edit(ctx: AppContext, id: number, content: unknown): Promise<ProfileComment> {
    const user = requireUser(ctx);
    checkId(id, 'コメント');
    await ctx.services.writes.count(ctx, user.id, 'comment');
    await ctx.em.transactional(async (tx) => {
      const [row]: (CommentRow & { content: string })[] = await tx.execute(
        `${THREAD_LOCK} where c.id = ? for update of c`,
        [id],
      );
      if (!row) throw notFound('コメント');
      if (row.author_id !== user.id) throw forbidden('コメントを編集できるのはコメントした本人だけです。');
      const text = checkCommentContent(content, row.parent_id !== null);
      if (text === row.content) return;
      await tx.execute(`update profile_comment set content = ?, edited_at = clock_timestamp() where id = ?`, [
        text,
        id,
      ]);
      record(tx, {
        type: 'profile.comment.edited',
        aggregateId: row.profile_id,
        actorId: user.id,
        payload: {
          profile: { id: row.profile_id, employeeId: row.owner_id },
          commentId: id,
          parentId: row.parent_id,
          authorId: user.id,
        },
      });
      await tx.flush();
    });
    return this.get(ctx, id);
  }

  /** Deletes a comment and its replies: by the comment's author or the profile's owner. */
  async delete(ctx: AppContext, id: number): Promise<boolean> {
    const user = requireUser(ctx);
    checkId(id, 'コメント');
    await ctx.em.transactional(async (tx) => {
      const [row]: CommentRow[] = await tx.execute(`${THREAD_LOCK} where c.id = ? for update of c`, [id]);
      if (!row) throw notFound('コメント');
      if (row.author_id !== user.id && row.owner_id !== user.id)
        throw forbidden('このコメントを削除する権限がありません。');
      await withdrawAbout(tx, user.id, { profileCommentId: id });
      const gone: { id: number }[] = await tx.execute(
        `delete from profile_comment where id = ? or parent_id = ? returning id`,
        [id, id],
      );
      record(tx, {
        type: 'profile.comment.deleted',
        aggregateId: row.profile_id,
        actorId: user.id,
        payload: {
          profile: { id: row.profile_id, employeeId: row.owner_id },
          commentId: id,
          parentId: row.parent_id,
          authorId: row.author_id,
          replyIds: gone.map((g) => g.id).filter((g) => g !== id),
        },
      });
      await tx.flush();
    });
    return true;
  }

  private async row(ctx: AppContext, id: number): Promise<CommentRow> {
    checkId(id, 'コメント');
    const row = await THREAD.row(ctx.em, id);
    if (!row) throw notFound('コメント');
    return row;
  }
}

/** The comment row without the author's joins (FOR UPDATE may not lock the nullable side of an outer join). */
const THREAD_LOCK = `select c.id, c.profile_id, p.employee_id as owner_id, c.author_id, c.parent_id, c.content from profile_comment c join profile p on p.id = c.profile_id`;

function toComment(r: CommentRow, viewer: number): ProfileComment {
  return {
    id: r.id,
    profileId: r.profile_id,
    author: commentAuthor(r),
    content: r.content,
    parentId: r.parent_id,
    createdAt: new Date(r.created_at),
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    canEdit: r.author_id === viewer,
    canDelete: r.author_id === viewer || r.owner_id === viewer,
    replies: [],
    replyCount: 0,
  };
}
