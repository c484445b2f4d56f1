import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import { badInput, forbidden, tooManyRequests } from '../../../platform/errors.js';
import { MASTER_DATA_ROLES, type EmployeeRole } from '../../employees/employee.enums.js';
import { secondsToTokyoMidnight } from '@intranet/schema/calendar/tokyo';
import { record } from '../../../platform/events/outbox.js';
import { pgArray } from '../../../platform/sql.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import { snapshot, type PostRow } from '../blog-post.queries.js';
import { askReaders, confirmationOpen, readersOf, type Reader } from './blog-reading.readers.js';

/** What a viewer sees of a post's required reading. */
export interface ReadingSummary {
  confirmedCount: number;
  confirmedByMe: boolean;
}

/** The author's view: who of the post's readers confirmed (when) and who not yet. */
export interface ReadingStatus {
  postId: number;
  confirmed: (Reader & { confirmedAt: Date })[];
  unconfirmed: Reader[];
}

const NOT_ASKED = 'この投稿は確認（必読）を求めていません。';
const CLOSED = '速報の掲載が終わったため、確認（必読）の受付は終了しました。';

/**
 * Required reading of 速報 posts. A reader who may see the post (BlogPostReads.readableRow: the one
 * visibility rule) confirms it once; only its author sees who has and has not confirmed among the
 * employees who may read it, reminds those who have not (a notification each) and resets every
 * confirmation after a major edit (the readers are asked again). Each change records its event in
 * the same transaction, so every open feed's counts follow live.
 */
export class BlogReadingService {
  constructor(private readonly posts: BlogPostReads) {}

  /** The signed-in employee confirms they read the post; true when it is newly confirmed. */
  async confirm(ctx: AppContext, postId: number): Promise<boolean> {
    const user = requireUser(ctx);
    return ctx.em.transactional(async (tx) => {
      const row = await this.posts.readableRow(ctx, tx, postId);
      if (!row.require_confirmation) throw badInput(NOT_ASKED);
      if (row.author_id === user.id) throw forbidden('自分の投稿は確認できません（確認するのは閲覧者です）。');
      if (!confirmationOpen({ requireConfirmation: true, isPin: row.is_pin, pinEnd: row.pin_end }))
        throw badInput(CLOSED);
      const done: unknown[] = await tx.execute(
        `insert into blog_read_confirmation (post_id, employee_id) values (?, ?) on conflict do nothing returning post_id`,
        [row.id, user.id],
      );
      if (!done.length) return false;
      // The request is answered: its notifications need no more attention.
      await tx.execute(
        `update notification set read_at = now() where recipient_id = ? and post_id = ? and kind = 'READ_REQUEST' and read_at is null`,
        [user.id, row.id],
      );
      this.record(tx, row, user.id, true);
      await tx.flush();
      return true;
    });
  }

  /** The author's list of the readers who have and have not confirmed. */
  async status(ctx: AppContext, postId: number): Promise<ReadingStatus> {
    const row = await this.own(ctx, ctx.em, postId);
    return this.statusOf(ctx.em, row);
  }

  /**
   * The author (or a 管理者) reminds every reader who has not confirmed (a notification each);
   * answers how many. Once a day per post (Asia/Tokyo): the day's first reminder is taken
   * atomically, so repeats and aliases remind no one twice.
   */
  async remind(ctx: AppContext, postId: number): Promise<number> {
    return ctx.em.transactional(async (tx) => {
      const row = await this.own(ctx, tx, postId, MASTER_DATA_ROLES);
      if (!confirmationOpen({ requireConfirmation: true, isPin: row.is_pin, pinEnd: row.pin_end }))
        throw badInput(CLOSED);
      const taken: unknown[] = await tx.execute(
        `update blog_post set reading_reminded_at = now()
          where id = ? and (reading_reminded_at is null or (reading_reminded_at at time zone 'Asia/Tokyo')::date < (now() at time zone 'Asia/Tokyo')::date)
          returning id`,
        [row.id],
      );
      if (!taken.length)
        throw tooManyRequests(
          '確認のリマインドは1つの投稿につき1日1回までです。明日以降にもう一度お試しください。',
          secondsToTokyoMidnight(),
        );
      const { unconfirmed } = await this.statusOf(tx, row);
      await askReaders(
        tx,
        row,
        unconfirmed.map((r) => r.id),
      );
      await tx.flush();
      return unconfirmed.length;
    });
  }

  /** The author clears every confirmation (after a major edit) and asks every reader again. */
  async reset(ctx: AppContext, postId: number): Promise<ReadingStatus> {
    const status = await ctx.em.transactional(async (tx) => {
      const row = await this.own(ctx, tx, postId);
      if (!confirmationOpen({ requireConfirmation: true, isPin: row.is_pin, pinEnd: row.pin_end }))
        throw badInput(CLOSED);
      await tx.execute(`delete from blog_read_confirmation where post_id = ?`, [row.id]);
      const readers = await readersOf(tx, row);
      await askReaders(
        tx,
        row,
        readers.map((r) => r.id),
      );
      this.record(tx, row, row.author_id, false);
      await tx.flush();
      return { postId: row.id, confirmed: [], unconfirmed: readers };
    });
    return status;
  }

  /** A post's confirmation count and the viewer's flag, batched per request (a feed page is one statement). */
  summary(ctx: AppContext, postId: number): Promise<ReadingSummary> {
    let loader = this.loaders.get(ctx);
    if (!loader) {
      const viewer = requireUser(ctx).id;
      // Batching only, no cache: a subscription's context outlives one delivery.
      this.loaders.set(ctx, (loader = new DataLoader((ids) => summaries(ctx.em, viewer, ids), { cache: false })));
    }
    return loader.load(postId);
  }

  /** Only views of posts the viewer may read reach the loader (feed, 速報, detail, live), so it needs no check of its own. */
  private readonly loaders = new WeakMap<AppContext, DataLoader<number, ReadingSummary>>();

  /** The post, when the caller may read it (NOT_FOUND otherwise), is theirs (FORBIDDEN) and asks for confirmation (BAD_USER_INPUT). */
  /** The post, when the caller wrote it (or has one of `alsoRoles`); FORBIDDEN otherwise. */
  private async own(
    ctx: AppContext,
    em: EntityManager,
    postId: number,
    alsoRoles: readonly EmployeeRole[] = [],
  ): Promise<PostRow> {
    const user = requireUser(ctx);
    const row = await this.posts.readableRow(ctx, em, postId);
    if (row.author_id !== user.id && !alsoRoles.includes(user.role))
      throw forbidden('確認の状況を見られるのは投稿の作成者だけです。');
    if (!row.require_confirmation) throw badInput(NOT_ASKED);
    return row;
  }

  private async statusOf(em: EntityManager, row: PostRow): Promise<ReadingStatus> {
    const readers = await readersOf(em, row);
    const rows: { employee_id: number; created_at: Date }[] = await em.execute(
      `select employee_id, created_at from blog_read_confirmation where post_id = ?`,
      [row.id],
    );
    const at = new Map(rows.map((r) => [r.employee_id, new Date(r.created_at)]));
    return {
      postId: row.id,
      confirmed: readers.filter((r) => at.has(r.id)).map((r) => ({ ...r, confirmedAt: at.get(r.id)! })),
      unconfirmed: readers.filter((r) => !at.has(r.id)),
    };
  }

  private record(tx: EntityManager, row: PostRow, employeeId: number, on: boolean) {
    record(tx, {
      type: 'blog.post.confirmation_changed',
      aggregateId: row.id,
      actorId: employeeId,
      payload: { post: snapshot(row), employeeId, on },
    });
  }
}

async function summaries(em: EntityManager, viewer: number, ids: readonly number[]): Promise<ReadingSummary[]> {
  const rows: { id: number; n: number; mine: boolean }[] = await em.execute(
    `select p.id, (select count(*)::int from blog_read_confirmation c where c.post_id = p.id) as n,
            exists (select 1 from blog_read_confirmation c where c.post_id = p.id and c.employee_id = ?) as mine
       from unnest(?::int[]) as p(id)`,
    [viewer, pgArray([...ids])],
  );
  const by = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => ({ confirmedCount: by.get(id)?.n ?? 0, confirmedByMe: !!by.get(id)?.mine }));
}
