import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { repoRoot } from '../platform/paths.js';

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
      .execute(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'mikro_orm_migrations' order by 1`);
    expect(rows.length).toBeGreaterThan(40);
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/data-access.md'), 'utf8');
    expect(rows.map((r) => r.table_name).filter((t) => !doc.includes(`\`${t}\``))).toEqual([]);
  });

  it('every `npm run <script>` in the READMEs and docs is a script of its package', () => {
    const scriptsOf = (dir: string) => Object.keys(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')).scripts ?? {});
    const root = scriptsOf('.');
    const docs = [
      'README.md',
      ...fs
        .readdirSync(path.join(REPO_ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
      ...['web', 'bench', 'workers', 'graph', 'graph/src/platform/events'].map((d) => `${d}/README.md`).filter((f) => fs.existsSync(path.join(REPO_ROOT, f))),
    ];
    const unknown: string[] = [];
    for (const file of docs) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      // `npm run x`, `npm --prefix web run x` or `(cd web && npm run x)`: the web package's own scripts count for web/README.md
      const own = file.startsWith('web/') && fs.existsSync(path.join(REPO_ROOT, 'web/package.json')) ? scriptsOf('web') : [];
      for (const m of text.matchAll(/npm (?:--prefix (\S+) )?run ([a-z][\w:-]*\w)/g)) {
        const scripts = m[1] ? scriptsOf(m[1]) : [...root, ...own];
        if (!scripts.includes(m[2])) unknown.push(`${file}: npm run ${m[2]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
