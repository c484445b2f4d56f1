/**
 * The bare handler's statements (bench/search/bare-server.ts): the same hits by the slowest honest
 * way, a sequential LIKE scan of every searchable text of the visible posts, grouped by post.
 * The visibility rule is a copy of readableSql (graph/src/modules/blog/blog-post.visibility.ts) for a
 * viewer who is not 管理者 (the bench's viewer), the texts and snippets' statement a copy of
 * matchedTexts (graph/src/modules/blog/search/blog-search.queries.ts).
 */
export { ACCESS_SQL } from '../feed/sql.js';

/**
 * $1 viewer, $2 readable category ids, $3 today, $4 one LIKE pattern per term, $5 how many. A post
 * hits when every term is in one of its texts; its level is the worst of each term's best source.
 */
export const LIKE_SCAN_SQL = `select h.id, h.level, to_char(h.publish_start, 'YYYY-MM-DD') as publish_start from (
    select m.id, m.publish_start, max(m.lvl)::int as level from (
      select p.id, p.publish_start, t.pattern, min(d.source) as lvl
        from blog_post p join blog_search_doc d on d.post_id = p.id cross join unnest($4::text[]) as t(pattern)
       where (p.author_id = $1 or (not p.is_draft and p.category_id = any($2::int[]) and (p.publish_start <= $3::date and (p.publish_end is null or p.publish_end >= $3::date))))
         and d.norm like t.pattern
       group by p.id, t.pattern) m
     group by m.id, m.publish_start having count(*) = cardinality($4::text[])) h
   order by h.level, h.publish_start desc, h.id desc limit $5`;

/** $1 post ids, $2 the normalized terms. */
export const TEXTS_SQL = `select distinct on (d.post_id, d.source) d.post_id, d.source, d.plain
       from blog_search_doc d left join blog_comment c on c.id = d.comment_id
      where d.post_id = any($1::int[]) and exists (select 1 from unnest($2::text[]) t(term) where strpos(d.norm, t.term) > 0)
      order by d.post_id, d.source, c.created_at desc nulls last, c.id desc`;
