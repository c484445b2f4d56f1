/**
 * The profile list (プロフィール一覧) through the full stack against a bare handler, in the same run
 * (bench/lib/compare.ts): 5,000 employees with a profile each, pages of 30 filtered by department
 * and by a skill (the search of who knows what). Target: at the common rate, the full stack's p99
 * ≤ 1.5 × the bare handler's (issue 38).
 *
 * Flags: --employees=5000 --target=1.5, and those of lib/compare.ts.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { compareFullBare } from './lib/compare.js';
import { addEmployees, startBenchDatabase, withClient } from './lib/database.js';
import { REPO_ROOT } from './lib/procs.js';

export const PROFILES_QUERY =
  'query Profiles($departmentId:Int,$q:String,$offset:Int!,$limit:Int!){ profiles(departmentId:$departmentId, q:$q, offset:$offset, limit:$limit) { total items { id employeeId name title departmentName email address phone skills languages likeCount likedByMe commentCount } } }';
const PAGE = 30;
const SKILLS = ['簿記', 'python', '中国語', '法人営業', 'aws'];

const bench: Bench = {
  description: 'Profile list (by department, by skill): full stack vs a bare node:http + pg handler',
  async run({ args, log }) {
    const employees = numArg(args, 'employees', 5000);
    const t0 = performance.now();
    const db = await startBenchDatabase();
    const setup = await withClient(db.url, async (c) => {
      const have = (await c.query<{ n: number }>('select count(*)::int as n from employee')).rows[0].n;
      await addEmployees(c, have + 1, employees);
      // A profile for everyone without one, in the demo's words (search_text as ProfileService keeps it).
      await c.query(
        `insert into profile (employee_id, title, address, phone, skills, languages, search_text)
         select e.id, t.title, '東京都千代田区' || e.id, '090-0000-' || lpad((e.id % 10000)::text, 4, '0'), t.skills, t.languages,
                lower(t.title || E'\\n' || array_to_string(t.skills, E'\\n') || E'\\n' || array_to_string(t.languages, E'\\n'))
           from employee e
           cross join lateral (select (array['営業','経理担当','エンジニア','人事主任','デザイナー'])[1 + e.id % 5] as title,
                                      case e.id % 5 when 0 then array['法人営業','Excel'] when 1 then array['簿記','決算業務'] when 2 then array['Python','AWS']
                                                    when 3 then array['採用面接','労務管理'] else array['Figma','SEO'] end as skills,
                                      case e.id % 3 when 0 then array['日本語','英語'] when 1 then array['日本語','中国語'] else array['日本語'] end as languages) t
          where not exists (select 1 from profile p where p.employee_id = e.id)`,
      );
      const departments = (await c.query<{ id: number }>('select id from department order by id')).rows.map(
        (r) => r.id,
      );
      const counts = (await c.query<{ profiles: number }>('select count(*)::int as profiles from profile')).rows[0];
      return { departments, profiles: counts.profiles };
    });
    log(`database: ${setup.profiles} profiles, prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const body = (v: Record<string, unknown>) => ({
      query: PROFILES_QUERY,
      variables: { offset: 0, limit: PAGE, ...v },
    });
    const bodies = [
      ...setup.departments.flatMap((d) => [0, PAGE, PAGE * 5].map((offset) => body({ departmentId: d, offset }))),
      ...SKILLS.flatMap((q) => [0, PAGE, PAGE * 10].map((offset) => body({ q, offset }))),
    ];
    return compareFullBare({
      name: 'profiles',
      args,
      log,
      db,
      bareFile: path.join(REPO_ROOT, 'bench/profiles/bare-server.ts'),
      bareLabel: 'bare handler (node:http + pg, one SQL)',
      fullTimings: 'profiles.profiles.list=profilesList',
      loginId: 'admin',
      bodies,
      check: [bodies[0], bodies[bodies.length - 1], body({ q: '簿記', offset: PAGE * 1000 })],
      okPrefix: '{"data":{"profiles":{"total":',
      setup: {
        profiles: setup.profiles,
        pageSize: PAGE,
        departments: setup.departments.length,
        skills: SKILLS,
        query: PROFILES_QUERY,
      },
      verdict: { kind: 'latency', max: numArg(args, 'target', 1.5) },
      defaults: { start: 50 },
    });
  },
};

export default bench;
