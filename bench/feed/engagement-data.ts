/**
 * The feed bench's engagement (issue 26): likes, seen marks, saves and comments on the posts of
 * blog-at-scale, set-based (one statement per table, generate_series per post). About 2 million
 * like and seen rows on 100,000 posts: the posts of the last 10 days are read by up to 1,000 and
 * liked by up to 100 employees each, older ones by up to 14 and 14; comments on a third of the posts
 * (up to 29 on recent ones). The viewer has liked (1 in 4), seen (2 in 3) and saved (1 in 10) the posts they can read,
 * so the page's flags differ from card to card. Then VACUUM ANALYZE: the counts are index-only scans.
 */
import type pg from 'pg';

export interface EngagementAtScale {
  likes: number;
  seen: number;
  saves: number;
  comments: number;
}

/** Employee `k` of post `p`'s marks: distinct for k < the employee count (97 is prime to it, unless it divides it). */
const NTH_EMPLOYEE = `e.ids[1 + (p.id * 131 + k * 97) % array_length(e.ids, 1)]`;
const ACTIVE = `(select array_agg(id order by id) ids from employee where status = 'ACTIVE') e`;
const RECENT = `p.publish_start between $1::date - 10 and $1::date`;

export async function seedEngagement(
  c: pg.Client,
  o: { today: string; viewerId: number; readable: number[] },
): Promise<EngagementAtScale> {
  const marks = async (table: string, recent: string, older: string) => {
    await c.query(
      `insert into ${table} (post_id, employee_id)
       select p.id, ${NTH_EMPLOYEE} from blog_post p, ${ACTIVE},
              lateral generate_series(0, case when ${RECENT} then ${recent} else ${older} end - 1) k
       on conflict do nothing`,
      [o.today],
    );
  };
  await marks('blog_seen', '(p.id * 13) % 1000', '(p.id * 13) % 15');
  await marks('blog_like', '(p.id * 7) % 100', '(p.id * 7) % 15');
  await marks('blog_save', '(p.id * 3) % 5', '0');
  // The viewer's own marks on posts they can read: liked 1 in 4, seen 2 in 3, saved 1 in 10.
  const own = async (table: string, where: string) =>
    c.query(
      `insert into ${table} (post_id, employee_id) select p.id, $1 from blog_post p where p.category_id = any($2::int[]) and ${where} on conflict do nothing`,
      [o.viewerId, `{${o.readable.join(',')}}`],
    );
  // (by id / 7: a category's posts have ids of one residue, so id % n alone would mark all or none of a page)
  await own('blog_like', '(p.id / 7) % 4 = 0');
  await own('blog_seen', '(p.id / 7) % 3 <> 0');
  await own('blog_save', '(p.id / 7) % 10 = 0');
  await c.query(
    `insert into blog_comment (post_id, author_id, content, created_at)
     select p.id, ${NTH_EMPLOYEE}, 'コメント ' || k || ' です。', p.created_at + make_interval(mins => k + 1) from blog_post p, ${ACTIVE},
            lateral generate_series(0, case when ${RECENT} then (p.id * 11) % 30 when p.id % 3 = 0 then p.id % 4 else 0 end - 1) k`,
    [o.today],
  );
  await c.query(`vacuum analyze blog_like, blog_seen, blog_save, blog_comment`);
  const { rows } = await c.query<EngagementAtScale>(
    `select (select count(*)::int from blog_like) as likes, (select count(*)::int from blog_seen) as seen,
            (select count(*)::int from blog_save) as saves, (select count(*)::int from blog_comment) as comments`,
  );
  return rows[0];
}
