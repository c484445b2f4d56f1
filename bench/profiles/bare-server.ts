/**
 * Bench child: the profile list's bare baseline (bench/lib/bare.ts: node:http + pg, the same session
 * lookup), answering the list query with the same JSON from one hand-written SQL per page (the viewer
 * is 管理者, who sees every address and phone, as in ProfileService's rule).
 */
import { bareCheckPage, serveBare } from '../lib/bare.js';

// Page by id with the filters on profile and employee only, then the page's columns and counts.
const PAGE_SQL = `with page as (
    select p.id, count(*) over() as total from profile p join employee e on e.id = p.employee_id
     where ($3::int is null or e.department_id = $3) and ($4::text is null or p.search_text like $4)
     order by p.id limit $1 offset $2)
  select p.id, p.employee_id, e.name, p.title, d.name as department_name, e.email, p.address, p.phone, p.skills, p.languages,
         (select count(*)::int from profile_like pl where pl.profile_id = p.id) as like_count,
         exists (select 1 from profile_like pl where pl.profile_id = p.id and pl.employee_id = $5) as liked_by_me,
         (select count(*)::int from profile_comment pc where pc.profile_id = p.id) as comment_count, page.total
    from page join profile p on p.id = page.id join employee e on e.id = p.employee_id left join department d on d.id = e.department_id
   order by p.id`;
const COUNT_SQL = `select count(*) as total from profile p join employee e on e.id = p.employee_id
  where ($1::int is null or e.department_id = $1) and ($2::text is null or p.search_text like $2)`;

const like = (q: unknown) =>
  typeof q === 'string' && q.trim()
    ? `%${q
        .normalize('NFKC')
        .toLowerCase()
        .trim()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    : null;

await serveBare('pageQuery', async (pool, user, variables) => {
  const { offset, limit } = bareCheckPage(variables.offset, variables.limit);
  const department = typeof variables.departmentId === 'number' ? variables.departmentId : null;
  const q = like(variables.q);
  const { rows } = await pool.query(PAGE_SQL, [limit, offset, department, q, user.id]);
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && offset > 0) total = Number((await pool.query(COUNT_SQL, [department, q])).rows[0].total);
  const items = rows.map((r) => ({
    id: r.id,
    employeeId: r.employee_id,
    name: r.name,
    title: r.title,
    departmentName: r.department_name,
    email: r.email,
    address: r.address,
    phone: r.phone,
    skills: r.skills,
    languages: r.languages,
    likeCount: r.like_count,
    likedByMe: r.liked_by_me,
    commentCount: r.comment_count,
  }));
  return JSON.stringify({ data: { profiles: { total, items } } });
});
