import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import { initialJs } from '../web/scripts/initial-js-size.mjs';

const dist = path.resolve(import.meta.dirname, '../web/dist');

describe('bundle budget', () => {
  test('the JS loaded before the first screen stays near 150 KB gzipped', () => {
    const rows = initialJs() as { file: string; gzip: number }[];
    const total = rows.reduce((a, r) => a + r.gzip, 0);
    expect(total / 1024).toBeLessThan(160);
  });

  test('a screen loads its modules in a few chunks: the shell in one (with its own), the sign-in page in one (with its own) (web/scripts/screen-chunks.mjs)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; imports?: string[] }
    >;
    const closure = (key: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(key)) return seen;
      seen.add(key);
      for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
      return seen;
    };
    const first = closure('index.html');
    const beyondEntry = (key: string) => [...closure(key)].filter((k) => !first.has(k)).map((k) => manifest[k].file);
    // Left to the automatic splitting, the shell loaded 30 chunks beyond the entry's, the sign-in page 10.
    expect(beyondEntry('src/features/auth/LoginPage.tsx')).toHaveLength(2);
    expect(beyondEntry('src/app/layout/AppShell.tsx')).toHaveLength(3);
  });

  test("a screen's GraphQL documents travel with its own chunk, not with the first screen (web/scripts/inline-graphql.mjs)", () => {
    const initial = (initialJs() as { file: string }[])
      .map((r) => fs.readFileSync(path.join(dist, r.file), 'utf8'))
      .join('\n');
    // the sign-in documents are needed first; the computers' detail fragment is not
    expect(initial).toContain('CurrentUserFields');
    expect(initial).not.toContain('ComputerDetailFields');
    const chunks = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
    expect(
      chunks.some((f) => fs.readFileSync(path.join(dist, 'assets', f), 'utf8').includes('ComputerDetailFields')),
    ).toBe(true);
  });
});
