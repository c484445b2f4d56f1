/**
 * Bench child: the blog feed's bare baseline (bench/lib/bare.ts: node:http + pg, the same session
 * lookup, from the cookie), answering the feed bench's document (the first page of `blogFeed` with
 * its `pinned`, card fields and tags) with the same JSON from copies of the service's statements:
 * the viewer's categories once, the feed's pinned part and the rest, 速報, then the posts' rows,
 * their engagement (counts, likers and the viewer's flags) and comment counts once for both lists.
 * The rules (state, pinned, cursor, URLs) are restated here in a few lines.
 */
import { BareError, serveBare } from '../lib/bare.js';
import { ACCESS_SQL, COMMENT_COUNTS_SQL, ENGAGEMENT_SQL, PINNED_SQL, REST_SQL, ROWS_SQL } from './sql.js';
import { tokyoToday } from '@intranet/schema/calendar/tokyo';

const PAGE = 20;
const MAX_PINNED = 50;
const STATE_LABEL: Record<string, string> = {
  DRAFT: '下書き',
  SCHEDULED: '公開予定',
  PUBLISHED: '公開中',
  EXPIRED: '公開終了',
};

interface Key {
  id: number;
  publish_start: string;
}
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- pg rows of ROWS_SQL, read field by field below

const stateOf = (r: Row, today: string) =>
  r.is_draft
    ? 'DRAFT'
    : r.publish_start > today
      ? 'SCHEDULED'
      : r.publish_end !== null && r.publish_end < today
        ? 'EXPIRED'
        : 'PUBLISHED';
const cursor = (part: 'p' | 'r', k: Key) => Buffer.from(`${part}|${k.publish_start}|${k.id}`).toString('base64url');

/** What the engagement statements answer for one post (ENGAGEMENT_SQL, COMMENT_COUNTS_SQL). */
interface Engaged {
  seen: boolean;
  saved: boolean;
  like_count: number;
  liked: boolean;
  likers: { id: number; name: string; departmentName: string | null }[] | null;
  comments: number;
}

/** A card as the document asks for it (BlogCardFields + tags + commentCount, with Apollo's __typename). */
function card(r: Row, g: Engaged, viewer: number, today: string) {
  const state = stateOf(r, today);
  const likers = g.likers ?? [];
  return {
    id: r.id,
    title: r.title,
    contentHtml: r.content_html,
    publishStart: r.publish_start,
    updatedAt: (r.updated_at as Date).toISOString(),
    state,
    stateLabel: STATE_LABEL[state],
    pinned: state === 'PUBLISHED' && r.is_pin && r.pin_start <= today && today <= r.pin_end,
    allowLikes: r.allow_likes,
    likeCount: g.like_count,
    likedByMe: g.liked,
    likers: likers.map((l) => ({ ...l, __typename: 'BlogAuthor' })),
    isNew: !g.seen,
    saved: g.saved,
    commentCount: g.comments,
    author: { id: r.author_id, name: r.author_name, __typename: 'BlogAuthor' },
    category:
      r.category_id !== null
        ? { id: r.category_id, name: r.category_name, color: r.category_color, __typename: 'BlogCategoryRef' }
        : null,
    attachment:
      r.attachment_key !== null
        ? {
            name: r.attachment_name,
            type: r.attachment_type,
            url: `/api/blogs/${r.id}/attachment`,
            thumbnailUrl: r.attachment_thumb_key !== null ? `/api/blogs/${r.id}/attachment/thumbnail` : null,
            __typename: 'BlogAttachment',
          }
        : null,
    tags: (r.tags as { id: number; content: string }[]).map((t) => ({ ...t, __typename: 'BlogTagRef' })),
    __typename: 'BlogPostView',
  };
}

await serveBare('feedPage', async (pool, viewer, v) => {
  if (v.after != null || v.filter != null)
    throw new BareError('the bare handler answers the first page without a filter only', 'BAD_USER_INPUT');
  const today = tokyoToday();
  const readable = (await pool.query<{ id: number; member: boolean }>(ACCESS_SQL, [viewer.id])).rows
    .filter((r) => r.member)
    .map((r) => r.id);
  const cats = `{${readable.join(',')}}`;
  let feed: number[] = [];
  let next: string | null = null;
  let pinnedList: number[] = [];
  if (readable.length) {
    // The feed's first page: pinned first, then the rest of each category merged by (publish start, id).
    const pinned = (await pool.query<Key>(PINNED_SQL, [cats, today, PAGE + 1])).rows;
    if (pinned.length > PAGE) {
      feed = pinned.slice(0, PAGE).map((r) => r.id);
      next = cursor('p', pinned[PAGE - 1]);
    } else {
      const want = PAGE - pinned.length;
      const rest = (await pool.query<Key>(REST_SQL, [cats, viewer.id, today, want + 1])).rows;
      const taken = rest.slice(0, want);
      feed = [...pinned, ...taken].map((r) => r.id);
      if (rest.length > want)
        next = taken.length ? cursor('r', taken[taken.length - 1]) : cursor('p', pinned[pinned.length - 1]);
    }
    pinnedList = (await pool.query<Key>(PINNED_SQL, [cats, today, MAX_PINNED])).rows.map((r) => r.id);
  }
  const ids = [...new Set([...feed, ...pinnedList])];
  const idList = `{${ids.join(',')}}`;
  const rows = new Map<number, Row>(
    ids.length ? (await pool.query(ROWS_SQL, [idList])).rows.map((r) => [r.id, r]) : [],
  );
  const engaged = new Map<number, Engaged>();
  if (ids.length) {
    for (const r of (await pool.query(ENGAGEMENT_SQL, [idList, viewer.id])).rows)
      engaged.set(r.id, { ...r, comments: 0 });
    for (const r of (await pool.query(COMMENT_COUNTS_SQL, [idList])).rows) engaged.get(r.post_id)!.comments = r.n;
  }
  const cards = (list: number[]) =>
    list.flatMap((id) => (rows.has(id) ? [card(rows.get(id)!, engaged.get(id)!, viewer.id, today)] : []));
  return JSON.stringify({
    data: { blogFeed: { items: cards(feed), nextCursor: next, pinned: cards(pinnedList), __typename: 'BlogFeedPage' } },
  });
});
