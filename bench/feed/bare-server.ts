/**
 * Bench child: the blog feed's bare baseline (bench/lib/bare.ts: node:http + pg, the same session
 * lookup, from the cookie), answering the feed bench's document (the first page of `blogFeed` and
 * `blogPinned`, card fields and tags) with the same JSON from copies of the service's statements:
 * the viewer's categories once, the feed's pinned part and the rest, 速報, then the posts' rows once
 * for both lists. The rules (state, pinned, cursor, URLs) are restated here in a few lines.
 */
import { BareError, serveBare } from '../lib/bare.js';

// Copies of the statements of graph/src/modules/blog: BlogCategoryService.access (MEMBER_OF),
// blog-post.feed.ts feedPage (scope ALL, no filter, first page) and pinnedIds, and POST_SELECT of
// blog-post.queries.ts with SQL.pinnedNow / SQL.inWindow of blog-post.rules.ts. Keep them the same,
// or the ratio measures SQL instead of the stack.
const ACCESS_SQL = `select c.id, c.members_may_post, c.id in (select ce.category_id from blog_category_employee ce where ce.employee_id = $1
                   union
                   select cd.category_id from blog_category_department cd join employee e on e.department_id = cd.department_id where e.id = $1) as member from blog_category c`;
const PINNED_NOW = `(p.is_pin and p.pin_start <= $T::date and p.pin_end >= $T::date and p.publish_start <= $T::date and (p.publish_end is null or p.publish_end >= $T::date))`;
const IN_WINDOW = `(p.publish_start <= $T::date and (p.publish_end is null or p.publish_end >= $T::date))`;
const KEY = `p.id, to_char(p.publish_start, 'YYYY-MM-DD') as publish_start`;
const ORDER = `order by p.publish_start desc, p.id desc`;
const PINNED_SQL = `select ${KEY} from blog_post p where p.category_id = any($1::int[]) and not p.is_draft and ${PINNED_NOW.replaceAll('$T', '$2')} ${ORDER} limit $3`;
const REST_SQL = `select x.id, x.publish_start from unnest($1::int[]) as c(id)
         cross join lateral (select ${KEY}, p.publish_start as sort_key from blog_post p where p.category_id = c.id and not p.is_draft and (p.author_id = $2 or ${IN_WINDOW.replaceAll('$T', '$3')}) and not (not p.is_draft and ${PINNED_NOW.replaceAll('$T', '$3')}) ${ORDER} limit $4) x
        order by x.sort_key desc, x.id desc limit $4`;
const ROWS_SQL = `select p.id, p.title, p.content, p.content_html,
         p.category_id, c.name as category_name, c.color as category_color,
         p.author_id, a.name as author_name, ad.name as author_department,
         p.allow_comments, p.allow_likes,
         to_char(p.publish_start, 'YYYY-MM-DD') as publish_start, to_char(p.publish_end, 'YYYY-MM-DD') as publish_end,
         p.is_pin, to_char(p.pin_start, 'YYYY-MM-DD') as pin_start, to_char(p.pin_end, 'YYYY-MM-DD') as pin_end, p.is_draft,
         p.attachment_key, p.attachment_name, p.attachment_type, p.attachment_size, p.attachment_thumb_key,
         coalesce((select json_agg(json_build_object('id', t.id, 'content', t.content) order by lower(t.content), t.id)
                     from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id), '[]'::json) as tags,
         p.created_at, p.updated_at, p.updated_by_id, p.version
    from blog_post p
    join employee a on a.id = p.author_id
    left join department ad on ad.id = a.department_id
    left join blog_category c on c.id = p.category_id
   where p.id = any($1::int[])`;

const PAGE = 20;
const MAX_PINNED = 50;
const STATE_LABEL: Record<string, string> = { DRAFT: '下書き', SCHEDULED: '公開予定', PUBLISHED: '公開中', EXPIRED: '公開終了' };
const tokyoToday = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);

interface Key {
  id: number;
  publish_start: string;
}
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- pg rows of ROWS_SQL, read field by field below

const stateOf = (r: Row, today: string) =>
  r.is_draft ? 'DRAFT' : r.publish_start > today ? 'SCHEDULED' : r.publish_end !== null && r.publish_end < today ? 'EXPIRED' : 'PUBLISHED';
const cursor = (part: 'p' | 'r', k: Key) => Buffer.from(`${part}|${k.publish_start}|${k.id}`).toString('base64url');

/** A card as the document asks for it (BlogCardFields + tags, with Apollo's __typename). */
function card(r: Row, today: string) {
  const state = stateOf(r, today);
  return {
    id: r.id,
    title: r.title,
    contentHtml: r.content_html,
    publishStart: r.publish_start,
    updatedAt: (r.updated_at as Date).toISOString(),
    state,
    stateLabel: STATE_LABEL[state],
    pinned: state === 'PUBLISHED' && r.is_pin && r.pin_start <= today && today <= r.pin_end,
    author: { id: r.author_id, name: r.author_name, __typename: 'BlogAuthor' },
    category: r.category_id !== null ? { id: r.category_id, name: r.category_name, color: r.category_color, __typename: 'BlogCategoryRef' } : null,
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
  if (v.after != null || v.filter != null) throw new BareError('the bare handler answers the first page without a filter only', 'BAD_USER_INPUT');
  const today = tokyoToday();
  const readable = (await pool.query<{ id: number; member: boolean }>(ACCESS_SQL, [viewer.id])).rows.filter((r) => r.member).map((r) => r.id);
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
      if (rest.length > want) next = taken.length ? cursor('r', taken[taken.length - 1]) : cursor('p', pinned[pinned.length - 1]);
    }
    pinnedList = (await pool.query<Key>(PINNED_SQL, [cats, today, MAX_PINNED])).rows.map((r) => r.id);
  }
  const ids = [...new Set([...feed, ...pinnedList])];
  const rows = new Map<number, Row>(ids.length ? (await pool.query(ROWS_SQL, [`{${ids.join(',')}}`])).rows.map((r) => [r.id, r]) : []);
  const cards = (list: number[]) => list.flatMap((id) => (rows.has(id) ? [card(rows.get(id)!, today)] : []));
  return JSON.stringify({ data: { blogFeed: { items: cards(feed), nextCursor: next, __typename: 'BlogFeedPage' }, blogPinned: cards(pinnedList) } });
});
