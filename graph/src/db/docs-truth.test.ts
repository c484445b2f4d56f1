import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { repoRoot } from '../platform/paths.js';
import { COMPUTER_FIELDS } from '../modules/computers/computer.fields.js';
import { SMARTPHONE_FIELDS } from '../modules/smartphones/smartphone.fields.js';
import { OFFICE_ACCOUNT_FIELDS } from '../modules/office-accounts/office-account.fields.js';
import { POST_FIELDS } from '../modules/blog/blog-post.fields.js';
import { CATEGORY_FIELDS } from '../modules/blog/blog-category.fields.js';
import { buildSchema, type GraphQLInputObjectType } from 'graphql';
import { employee } from '../modules/employees/employee.routes.js';
import { department } from '../modules/departments/department.routes.js';
import { schedule } from '../modules/schedules/schedule.routes.js';
import { profileResource } from '../modules/profiles/profile.routes.js';
import type { BodyTable } from '../platform/rest.js';

const REPO_ROOT = repoRoot(import.meta.url);

/** The docs name what the code has: every table in data-access.md, every `npm run` a README gives exists. */
describe('the docs are true', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it('docs/data-access.md names every table the migrations create', async () => {
    const rows: { table_name: string }[] = await db.orm.em
      .fork()
      .execute(
        `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'mikro_orm_migrations' order by 1`,
      );
    expect(rows.length).toBeGreaterThan(40);
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/data-access.md'), 'utf8');
    expect(rows.map((r) => r.table_name).filter((t) => !doc.includes(`\`${t}\``))).toEqual([]);
  });

  it('every `npm run <script>` in the READMEs and docs is a script of its package', () => {
    const scriptsOf = (dir: string) =>
      Object.keys(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')).scripts ?? {});
    const root = scriptsOf('.');
    const docs = [
      'README.md',
      ...fs
        .readdirSync(path.join(REPO_ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
      ...['web', 'bench', 'workers', 'graph', 'graph/src/platform/events']
        .map((d) => `${d}/README.md`)
        .filter((f) => fs.existsSync(path.join(REPO_ROOT, f))),
    ];
    const unknown: string[] = [];
    for (const file of docs) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      // `npm run x`, `npm --prefix web run x` or `(cd web && npm run x)`: the web package's own scripts count for web/README.md
      const own =
        file.startsWith('web/') && fs.existsSync(path.join(REPO_ROOT, 'web/package.json')) ? scriptsOf('web') : [];
      for (const m of text.matchAll(/npm (?:--prefix (\S+) )?run ([a-z][\w:-]*\w)/g)) {
        const scripts = m[1] ? scriptsOf(m[1]) : [...root, ...own];
        if (!scripts.includes(m[2])) unknown.push(`${file}: npm run ${m[2]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});

/**
 * docs/api.md's table of names: for each record kind described field by field, the GraphQL input
 * field and the `/api` body name(s) it is read from, rendered from the descriptions themselves. Run
 * with UPDATE_API_NAMES=1 to write the table after a field changes.
 */
describe('the REST and GraphQL names of each described field', () => {
  it('docs/api.md carries the table the field descriptions give', () => {
    type Described = Record<
      string,
      { label?: string; rest?: string; body?: string | { from: string | readonly string[] }; description?: string }
    >;
    const bodyNames = (f: Described[string]) => {
      const from = typeof f.body === 'string' ? f.body : (f.body?.from ?? f.rest);
      return (Array.isArray(from) ? from : [from])
        .filter(Boolean)
        .map((n) => `\`${n}\``)
        .join(', ');
    };
    const kinds: [string, string, Described][] = [
      ['パソコン', '`/api/computers`, `createComputer`', COMPUTER_FIELDS as unknown as Described],
      ['スマートフォン', '`/api/smartphone`, `createSmartphone`', SMARTPHONE_FIELDS as unknown as Described],
      [
        'Microsoft Office アカウント',
        '`/api/microsoft_office`, `createOfficeAccount`',
        OFFICE_ACCOUNT_FIELDS as unknown as Described,
      ],
      ['ブログの投稿', '`/api/blogs`, `createBlogPost`', POST_FIELDS as unknown as Described],
      ['ブログのカテゴリ', '`/api/blog_category`, `createBlogCategory`', CATEGORY_FIELDS as unknown as Described],
    ];
    const table = [
      '| record | GraphQL input field | `/api` body name(s) | label |',
      '|---|---|---|---|',
      ...kinds.flatMap(([kind, where, fields]) =>
        Object.entries(fields).map(
          ([key, f], n) =>
            `| ${n ? '' : `${kind} (${where})`} | \`${key}\` | ${bodyNames(f)} | ${(f.label ?? (f.description ?? '').split(/[（(]/)[0]!).trim()} |`,
        ),
      ),
    ].join('\n');
    const file = path.join(REPO_ROOT, 'docs/api.md');
    const doc = fs.readFileSync(file, 'utf8');
    const [start, end] = ['<!-- api-names:start -->\n', '\n<!-- api-names:end -->'];
    const i = doc.indexOf(start);
    const j = doc.indexOf(end);
    expect(i, 'docs/api.md has the api-names markers').toBeGreaterThan(0);
    if (process.env.UPDATE_API_NAMES === '1')
      fs.writeFileSync(file, doc.slice(0, i + start.length) + table + doc.slice(j));
    else expect(doc.slice(i + start.length, j)).toBe(table);
  });
});

/**
 * The same table for the record kinds that are not described field by field (employees, departments,
 * schedules, profiles): rendered from their `/api` body tables, each field's meaning from its GraphQL
 * input's description in the emitted schema. UPDATE_API_NAMES=1 writes it too.
 */
describe('the REST and GraphQL names of the other record kinds', () => {
  it('docs/api.md carries the table their body tables and the schema give', () => {
    const schema = buildSchema(fs.readFileSync(path.join(REPO_ROOT, 'schema/graphql/schema.graphql'), 'utf8'));
    const kinds: [string, string, string, BodyTable][] = [
      ['社員', '`/api/employees`, `createEmployee`', 'EmployeeInput', employee.body as BodyTable],
      ['部署', '`/api/departments`, `createDepartment`', 'DepartmentInput', department.body as BodyTable],
      ['予定', '`/api/schedules`, `createSchedule`', 'ScheduleInput', schedule.body as BodyTable],
      ['プロフィール', '`/api/profiles`, `updateProfile`', 'ProfileInput', profileResource.body as BodyTable],
    ];
    const rows = kinds.flatMap(([kind, where, input, body]) => {
      const fields = (schema.getType(input) as GraphQLInputObjectType).getFields();
      return body.names().map(({ field, from }, n) => {
        const described = fields[field];
        const meaning = described ? (described.description ?? '').split(/[（(。]/)[0]!.trim() || '—' : '（/api だけ）';
        return `| ${n ? '' : `${kind} (${where})`} | ${described ? `\`${field}\`` : '—'} | ${from.map((x) => `\`${x}\``).join(', ')} | ${meaning} |`;
      });
    });
    const table = [
      '| record | GraphQL input field | `/api` body name(s) | meaning |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
    const file = path.join(REPO_ROOT, 'docs/api.md');
    const doc = fs.readFileSync(file, 'utf8');
    const [start, end] = ['<!-- api-names-more:start -->\n', '\n<!-- api-names-more:end -->'];
    const i = doc.indexOf(start);
    const j = doc.indexOf(end);
    expect(i, 'docs/api.md has the api-names-more markers').toBeGreaterThan(0);
    if (process.env.UPDATE_API_NAMES === '1')
      fs.writeFileSync(file, doc.slice(0, i + start.length) + table + doc.slice(j));
    else expect(doc.slice(i + start.length, j)).toBe(table);
  });
});
