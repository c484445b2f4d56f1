import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events/envelope';
import type { BlogCategorySnapshot, BlogPostSnapshot } from '@intranet/schema/events/blog.events';
import { LiveHub, shareView } from '../../platform/live/hub.js';
import type { LivePubSub } from '../../platform/live/pubsub.js';
import { pgArray } from '../../platform/sql.js';
import type { CurrentUser } from '../auth/session.service.js';
import { isBlogAdmin } from './blog.enums.js';
import { BlogChangeKind, type BlogChange } from './blog-live.types.js';
import { onFeed, type FeedFilter } from './blog-post.feed.js';
import { POST_SELECT, readableOf, toView, type PostRow } from './blog-post.queries.js';
import { tokyoToday } from './blog-post.rules.js';
import { mayRead } from './blog-post.visibility.js';
import { postEngagement, type PostEngagement } from './engagement/blog-engagement.service.js';

/**
 * Live delivery of the blog. Each committed event is read up once per graph instance (the post as
 * it is now, and the members of the categories involved as they are now) and then judged for each
 * open subscription by the one visibility rule (mayRead): membership is therefore resolved at
 * delivery, so an employee removed from a category, or moved out of a member department, stops
 * receiving its posts at once, and one added starts. A viewer who saw the post before the change
 * but not after gets it with `post: null` (the card goes); one who saw it neither before nor after
 * gets nothing, not even its id. The post's engagement (counts, likers, who has seen, saved and confirmed it)
 * is read up with it, once, and each viewer's flags are set from it: no query per subscriber, and
 * the class's shared view never carries another subscriber's flags.
 */

type Viewer = Pick<CurrentUser, 'id' | 'role'>;
/** The feed a subscriber shows (checked by BlogPostReads.checkFeed): each post change says whether its post is on it. */
export interface LiveFeed {
  filter: FeedFilter;
  outsideWindow: boolean;
}

/** A post event, read up: the post now (null once deleted) and as it was before (null: new). */
interface PostEvent {
  on: 'post';
  kind: BlogChangeKind;
  postId: number;
  row: PostRow | null;
  today: string;
  before: { post: BlogPostSnapshot; today: string } | null;
  /** Employee ids of the members, now, of each category involved. */
  members: Map<number, Set<number>>;
  /** Only this employee hears of it (their own save). */
  onlyFor?: number;
  /** The post's counts, likers, seen and saved marks now (null once deleted), read once for every subscriber. */
  engagement: PostEngagement | null;
}
/** A category renamed, recoloured or given other members: who belonged before and who belongs now. */
interface CategoryEvent {
  on: 'category';
  category: BlogCategorySnapshot;
  labelChanged: boolean;
  was: Set<number>;
  is: Set<number>;
  /** Authors of its posts (they see their own posts whether members or not): a new label reaches them too. */
  authors: Set<number>;
}
/** An employee moved department: the categories they belong to through it may have changed. */
interface TransferEvent {
  on: 'transfer';
  employeeId: number;
}
export type BlogLiveEvent = PostEvent | CategoryEvent | TransferEvent;

const POST_KIND: Record<string, BlogChangeKind> = {
  'blog.post.created': BlogChangeKind.CREATED,
  'blog.post.updated': BlogChangeKind.UPDATED,
  'blog.post.deleted': BlogChangeKind.DELETED,
  'blog.post.published': BlogChangeKind.PUBLISHED,
  'blog.post.expired': BlogChangeKind.EXPIRED,
  'blog.post.pin_started': BlogChangeKind.PIN_STARTED,
  'blog.post.pin_ended': BlogChangeKind.PIN_ENDED,
  'blog.post.like_changed': BlogChangeKind.ENGAGEMENT_CHANGED,
  'blog.post.seen_changed': BlogChangeKind.ENGAGEMENT_CHANGED,
  'blog.post.save_changed': BlogChangeKind.ENGAGEMENT_CHANGED,
  'blog.post.confirmation_changed': BlogChangeKind.ENGAGEMENT_CHANGED,
  'blog.comment.added': BlogChangeKind.COMMENTS_CHANGED,
  'blog.comment.edited': BlogChangeKind.COMMENTS_CHANGED,
  'blog.comment.deleted': BlogChangeKind.COMMENTS_CHANGED,
};

/** The aggregate types whose events can change what a feed shows. */
const TOPICS = ['blog_post', 'blog_category', 'employee'] as const;

/** Employee ids of the members of each category, as they are now (named, or through their current department). */
async function membersOf(em: EntityManager, categoryIds: number[]): Promise<Map<number, Set<number>>> {
  if (!categoryIds.length) return new Map();
  const rows: { id: number; members: number[] }[] = await em.execute(
    `select c.id, array(select ce.employee_id from blog_category_employee ce where ce.category_id = c.id
                        union
                        select e.id from blog_category_department cd join employee e on e.department_id = cd.department_id
                         where cd.category_id = c.id) as members
       from unnest(?::int[]) as c(id)`,
    [pgArray(categoryIds)],
  );
  return new Map(rows.map((r) => [r.id, new Set(r.members)]));
}

/** The employees a membership list names: those named, and the current members of the departments named. */
async function employeesNamedBy(
  em: EntityManager,
  m: Pick<BlogCategorySnapshot, 'employeeIds' | 'departmentIds'>,
): Promise<Set<number>> {
  const rows: { id: number }[] = await em.execute(
    `select unnest(?::int[]) as id union select e.id from employee e where e.department_id = any(?::int[])`,
    [pgArray(m.employeeIds), pgArray(m.departmentIds)],
  );
  return new Set(rows.map((r) => r.id));
}

/** Who has written posts in a category (drafts included): they see those posts, members or not. */
async function authorsIn(em: EntityManager, categoryId: number): Promise<Set<number>> {
  const rows: { author_id: number }[] = await em.execute(
    `select distinct author_id from blog_post where category_id = ?`,
    [categoryId],
  );
  return new Set(rows.map((r) => r.author_id));
}

/** What delivery needs of one committed event (null: nothing a feed shows changed). */
export async function readUp(em: EntityManager, e: EventEnvelope): Promise<BlogLiveEvent | null> {
  const kind = POST_KIND[e.type];
  if (kind) {
    const p = e.payload as { post: BlogPostSnapshot; previous?: BlogPostSnapshot; since?: string };
    const today = tokyoToday();
    const before = kind === BlogChangeKind.CREATED ? null : { post: p.previous ?? p.post, today: p.since ?? today }; // a time-based change: as it was on the last day fired
    const asOf =
      e.type === 'blog.post.like_changed'
        ? (e.payload as { likerIds?: number[]; likeCount?: number }) // as of this like, in commit order
        : undefined;
    // The post as it is now and its engagement (a deleted post has neither), read side by side.
    const [[row], engagement] =
      kind === BlogChangeKind.DELETED
        ? [[], null]
        : await Promise.all([
            em.execute(`${POST_SELECT} where p.id = ?`, [p.post.id]) as Promise<PostRow[]>,
            postEngagement(em, p.post.id, asOf),
          ]);
    const categories = [row?.category_id, before?.post.categoryId].filter((c): c is number => c != null);
    const onlyFor = e.type === 'blog.post.save_changed' ? (e.payload as { employeeId: number }).employeeId : undefined;
    const members = await membersOf(em, [...new Set(categories)]);
    return { on: 'post', kind, postId: p.post.id, row: row ?? null, today, before, members, onlyFor, engagement };
  }
  if (e.type === 'blog.category.updated') {
    const p = e.payload as { category: BlogCategorySnapshot; previous: BlogCategorySnapshot; changed: string[] };
    const labelChanged = p.changed.includes('name') || p.changed.includes('color');
    const membership = p.changed.includes('employeeIds') || p.changed.includes('departmentIds');
    if (!labelChanged && !membership) return null;
    const is = (await membersOf(em, [p.category.id])).get(p.category.id) ?? new Set<number>();
    const authors = labelChanged ? await authorsIn(em, p.category.id) : new Set<number>();
    return {
      on: 'category',
      category: p.category,
      labelChanged,
      is,
      was: membership ? await employeesNamedBy(em, p.previous) : is,
      authors,
    };
  }
  if (e.type === 'employee.updated') {
    const p = e.payload as { employee: { id: number }; changed: string[] };
    return p.changed.includes('departmentId') ? { on: 'transfer', employeeId: p.employee.id } : null;
  }
  return null;
}

/** One rendered change per event and viewer class, shared by the class (platform/live/hub.ts). */
const rendered = new WeakMap<BlogLiveEvent, Map<string, BlogChange>>();

function shared(
  e: BlogLiveEvent,
  cls: string,
  make: () => Omit<BlogChange, 'postId' | 'post' | 'categoryId' | 'category' | 'inFeed'> & Partial<BlogChange>,
): BlogChange {
  let byClass = rendered.get(e);
  if (!byClass) rendered.set(e, (byClass = new Map()));
  let change = byClass.get(cls);
  if (!change)
    byClass.set(
      cls,
      (change = shareView({ postId: null, post: null, categoryId: null, category: null, inFeed: null, ...make() })),
    );
  return change;
}

/**
 * What `viewer` receives of an event (undefined: nothing). Cheap and synchronous: it runs in the
 * hub's publish loop. With `feed`, a post change also says whether the post is on that feed
 * (`inFeed`, the feed query's rule: onFeed); every change the viewer may see is sent whatever the
 * filter, for 速報 and open dialogs, and so that a card edited out of the filter leaves.
 */
export function changeFor(e: BlogLiveEvent, viewer: Viewer, feed?: LiveFeed): BlogChange | undefined {
  if (e.on === 'transfer')
    return e.employeeId === viewer.id
      ? shared(e, 'access', () => ({ kind: BlogChangeKind.ACCESS_CHANGED }))
      : undefined;
  if (e.on === 'category') {
    const was = e.was.has(viewer.id);
    const is = e.is.has(viewer.id);
    if (was !== is)
      return shared(e, 'access', () => ({ kind: BlogChangeKind.ACCESS_CHANGED, categoryId: e.category.id }));
    if (!e.labelChanged || !(is || e.authors.has(viewer.id))) return undefined;
    const { id, name, color } = e.category;
    return shared(e, 'label', () => ({
      kind: BlogChangeKind.CATEGORY_UPDATED,
      categoryId: id,
      category: { id, name, color },
    }));
  }
  if (e.onlyFor !== undefined && e.onlyFor !== viewer.id) return undefined;
  const member = (categoryId: number | null) => categoryId !== null && !!e.members.get(categoryId)?.has(viewer.id);
  const readable = (categoryId: number | null) => (member(categoryId) ? [categoryId!] : []);
  const row = e.row;
  const seesNow = row !== null && mayRead(viewer, { readable: readable(row.category_id) }, readableOf(row), e.today);
  const sawBefore =
    e.before !== null &&
    mayRead(viewer, { readable: readable(e.before.post.categoryId) }, e.before.post, e.before.today);
  if (!seesNow && !sawBefore) return undefined;
  if (!seesNow)
    return shared(e, feed ? 'gone:feed' : 'gone', () => ({
      kind: e.kind,
      postId: e.postId,
      inFeed: feed ? false : null,
    }));
  // What the view depends on besides the post: whether the viewer wrote it (canEdit) or is 管理者 (canDelete), and their own marks.
  const g = e.engagement!;
  const likedByMe = g.likedBy.has(viewer.id);
  const seenByMe = g.seenBy.has(viewer.id);
  const savedByMe = g.savedBy.has(viewer.id);
  const confirmedByMe = g.confirmedBy.has(viewer.id);
  const answeredByMe = confirmedByMe || g.commentedBy.has(viewer.id);
  const inFeed = feed
    ? onFeed(
        { id: viewer.id, outsideWindow: feed.outsideWindow },
        feed.filter,
        {
          ...readableOf(row),
          authorDepartmentId: row.author_department_id,
          title: row.title,
          tagIds: row.tags.map((t) => t.id),
          inReadableCategory: member(row.category_id),
          savedByViewer: savedByMe,
        },
        e.today,
      )
    : null;
  const role = row.author_id === viewer.id ? 'author' : isBlogAdmin(viewer.role) ? 'admin' : 'member';
  const cls = `${role}:${+likedByMe}${+seenByMe}${+savedByMe}${+confirmedByMe}${+answeredByMe}:${inFeed}`;
  return shared(e, cls, () => {
    const { likeCount, seenCount, commentCount, likers } = g;
    const engagement = {
      likeCount,
      seenCount,
      commentCount,
      likers,
      likedByMe,
      seenByMe,
      savedByMe,
      confirmedCount: g.confirmedBy.size,
      confirmedByMe,
      answeredByMe,
    };
    const post = { ...toView(row, viewer, e.today), engagement };
    return { kind: e.kind, postId: e.postId, post, inFeed };
  });
}

const hubs = new WeakMap<LivePubSub, LiveHub<BlogLiveEvent>>();

/**
 * The blog's hub: one pubsub listener per topic for every subscriber of this instance, each event
 * read up once (in order) before it is judged per subscriber. `em` reads (the ORM, not a request).
 */
export function blogHub(pubsub: LivePubSub, em: EntityManager): LiveHub<BlogLiveEvent> {
  let hub = hubs.get(pubsub);
  if (!hub) hubs.set(pubsub, (hub = new LiveHub(() => readUpEvents(pubsub, em))));
  return hub;
}

/** The committed events of TOPICS, read up one after the other (order kept), until returned. */
function readUpEvents(pubsub: LivePubSub, em: EntityManager): AsyncIterable<BlogLiveEvent> {
  return {
    [Symbol.asyncIterator]() {
      const sources = TOPICS.map((t) => pubsub.subscribe('event', t)[Symbol.asyncIterator]());
      const ready: BlogLiveEvent[] = [];
      let wake: (() => void) | undefined;
      let closed = false;
      let chain = Promise.resolve();
      for (const source of sources) {
        void (async () => {
          for (;;) {
            const r = await source
              .next()
              .catch(() => ({ done: true, value: undefined }) as IteratorResult<EventEnvelope>);
            if (r.done || closed) return;
            const envelope = r.value;
            // A read that fails (the database away for a moment) drops that one event, not the stream.
            chain = chain
              .then(() => readUp(em.fork(), envelope))
              .then((x) => {
                if (x && !closed) {
                  ready.push(x);
                  wake?.();
                }
              })
              .catch(() => undefined);
          }
        })();
      }
      const it: AsyncIterableIterator<BlogLiveEvent> = {
        next: async () => {
          while (!ready.length && !closed) await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          return ready.length ? { value: ready.shift()!, done: false } : { value: undefined, done: true };
        },
        return: async () => {
          closed = true;
          wake?.();
          await Promise.all(sources.map((s) => s.return?.()));
          return { value: undefined, done: true };
        },
        [Symbol.asyncIterator]: () => it,
      };
      return it;
    },
  };
}
