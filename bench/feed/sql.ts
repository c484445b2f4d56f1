/**
 * The feed page's statements as the bare handler runs them (bench/feed/bare-server.ts) and
 * `--explain` explains them (bench/feed/explain.ts), with `$n` bind parameters.
 */
// Copies of the statements of graph/src/modules/blog: BlogCategoryService.access (MEMBER_OF),
// blog-post.feed.ts feedPage (scope ALL, no filter, first page) and pinnedIds, and POST_SELECT of
// blog-post.queries.ts with SQL.pinnedNow / SQL.inWindow of blog-post.rules.ts. Keep them the same,
// or the ratio measures SQL instead of the stack. (Copied, not imported: the bare server loads none of the graph.)
const LIKERS_SHOWN = 20; // blog-post.rules.ts
export const ACCESS_SQL = `select c.id, c.members_may_post, c.id in (select ce.category_id from blog_category_employee ce where ce.employee_id = $1
                   union
                   select cd.category_id from blog_category_department cd join employee e on e.department_id = cd.department_id where e.id = $1) as member from blog_category c`;
const PINNED_NOW = `(p.is_pin and p.pin_start <= $T::date and p.pin_end >= $T::date and p.publish_start <= $T::date and (p.publish_end is null or p.publish_end >= $T::date))`;
const IN_WINDOW = `(p.publish_start <= $T::date and (p.publish_end is null or p.publish_end >= $T::date))`;
const KEY = `p.id, to_char(p.publish_start, 'YYYY-MM-DD') as publish_start`;
const ORDER = `order by p.publish_start desc, p.id desc`;
export const PINNED_SQL = `select ${KEY} from blog_post p where p.category_id = any($1::int[]) and not p.is_draft and ${PINNED_NOW.replaceAll('$T', '$2')} ${ORDER} limit $3`;
export const REST_SQL = `select x.id, x.publish_start from unnest($1::int[]) as c(id)
         cross join lateral (select ${KEY}, p.publish_start as sort_key from blog_post p where p.category_id = c.id and not p.is_draft and (p.author_id = $2 or ${IN_WINDOW.replaceAll('$T', '$3')}) and not (not p.is_draft and ${PINNED_NOW.replaceAll('$T', '$3')}) ${ORDER} limit $4) x
        order by x.sort_key desc, x.id desc limit $4`;
export const ROWS_SQL = `select p.id, p.title, p.content, p.content_html,
         p.category_id, c.name as category_name, c.color as category_color,
         p.author_id, a.name as author_name, ad.name as author_department,
         p.allow_comments, p.allow_likes,
         to_char(p.publish_start, 'YYYY-MM-DD') as publish_start, to_char(p.publish_end, 'YYYY-MM-DD') as publish_end,
         p.is_pin, to_char(p.pin_start, 'YYYY-MM-DD') as pin_start, to_char(p.pin_end, 'YYYY-MM-DD') as pin_end, p.is_draft,
         p.attachment_key, p.attachment_name, p.attachment_type, p.attachment_size, p.attachment_thumb_key,
         coalesce((select json_agg(json_build_object('id', t.id, 'content', t.content) order by lower(t.content), t.id)
                     from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id), '[]'::json) as tags,
         coalesce((select json_agg(json_build_object('id', m.id, 'name', m.name) order by array_position(p.mention_ids, m.id))
                     from employee m where m.id = any(p.mention_ids)), '[]'::json) as mentions,
         p.created_at, p.updated_at, p.updated_by_id, p.version
    from blog_post p
    join employee a on a.id = p.author_id
    left join department ad on ad.id = a.department_id
    left join blog_category c on c.id = p.category_id
   where p.id = any($1::int[])`;

// Copies of the card's engagement statements (issue 26): `summaries` of
// engagement/blog-engagement.service.ts and `countsOf` of comments/blog-comment.service.ts, each over
// the ids of a page ($1), the viewer's flags for $2.
export const ENGAGEMENT_SQL = `select p.id,
            (select count(*)::int from blog_like l where l.post_id = p.id) as like_count,
            (select json_agg(json_build_object('id', e.id, 'name', e.name, 'departmentName', d.name) order by f.created_at, e.id)
               from (select employee_id, created_at from blog_like l where l.post_id = p.id
                      order by created_at, employee_id limit ${LIKERS_SHOWN}) f
               join employee e on e.id = f.employee_id left join department d on d.id = e.department_id) as likers,
            exists (select 1 from blog_like l where l.post_id = p.id and l.employee_id = $2) as liked,
            (select count(*)::int from blog_seen s where s.post_id = p.id) as seen_count,
            exists (select 1 from blog_seen s where s.post_id = p.id and s.employee_id = $2) as seen,
            exists (select 1 from blog_save v where v.post_id = p.id and v.employee_id = $2) as saved
       from unnest($1::int[]) as p(id)`;
export const COMMENT_COUNTS_SQL = `select post_id, count(*)::int as n from blog_comment where post_id = any($1::int[]) group by post_id`;
