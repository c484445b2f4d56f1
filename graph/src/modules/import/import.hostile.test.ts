import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as XLSX from '@e965/xlsx';
import { transformFile } from '@swc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflatedFiller, lyingWorkbook } from '../../test/zip.js';

/**
 * Hostile spreadsheets read as an import job reads them (import.hostile.child.ts: the rows, and
 * beside them the outline and the bomb check), each in a process of its own with the default
 * limits: the process's peak RSS stays under 300 MB whatever the file. A memory bound, not a timing.
 * The child runs compiled JavaScript, as the server does (the TypeScript loader alone keeps about
 * 120 MB of its own).
 */
const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.resolve(here, '../..');
const REPO = path.resolve(SRC, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'import-hostile-'));
// Under node_modules, so the compiled files find the packages they import.
const out = mkdtempSync(path.join(REPO, 'node_modules', '.import-hostile-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** Compiles a file and the files it imports (relative imports, transitively) into `out`. */
async function compile(file: string, seen = new Set<string>()): Promise<void> {
  if (seen.has(file)) return;
  seen.add(file);
  const { code } = await transformFile(file, {
    swcrc: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
    module: { type: 'es6' },
  });
  const target = path.join(out, path.relative(SRC, file)).replace(/\.ts$/, '.js');
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, code);
  for (const m of code.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)\.js['"]/g))
    await compile(path.resolve(path.dirname(file), `${m[1]}.ts`), seen);
}
const CHILD = path.join(out, path.relative(SRC, path.join(here, 'import.hostile.child.js')));
beforeAll(() => compile(path.join(here, 'import.hostile.child.ts')));

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const MB = 1024 * 1024;
const LIMIT_KB = 300 * 1024;

const xlsx = lyingWorkbook;

const HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><dimension ref="A1:B2"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>管理番号</t></is></c></row>`;
const TAIL = '</sheetData></worksheet>';

async function measure(name: string, buf: Buffer, format: 'xlsx' | 'xls') {
  const file = path.join(dir, `${name}.${format}`);
  writeFileSync(file, buf);
  // As `npm start` and `npm run workers` run the server (package.json): without glibc's mmap threshold the same read
  // peaked at 300 MB of fragmented heap where it needs 144.
  const { stdout } = await run(process.execPath, ['--max-semi-space-size=32', CHILD, file, format], {
    cwd: REPO,
    maxBuffer: 1 << 20,
    env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '524288' },
  });
  const out = JSON.parse(stdout.trim().split('\n').pop()!) as {
    rows: number;
    error: string | null;
    baselineKb: number;
    maxRssKb: number;
  };
  console.log(
    `${name}: ${(buf.length / 1024).toFixed(0)} KB file, peak RSS ${(out.maxRssKb / 1024).toFixed(0)} MB (${(out.baselineKb / 1024).toFixed(0)} MB before reading), ${out.rows} rows, ${out.error ?? 'read'}`,
  );
  return out;
}

describe('hostile spreadsheets, each read in a process of its own: peak RSS under 300 MB', () => {
  it('one row, then 40 MB of spaces (a 42 KB .xlsx): the row is read', async () => {
    const out = await measure('filler', xlsx(await deflatedFiller(HEAD, 40 * MB, TAIL)), 'xlsx');
    expect(out.error).toBeNull();
    expect(out.rows).toBe(1);
    expect(out.maxRssKb).toBeLessThan(LIMIT_KB);
  }, 120_000);

  it('headers that understate the sizes, the sheet inflating to 400 MB (a 400 KB .xlsx): refused as a zip bomb', async () => {
    const out = await measure('lying', xlsx(await deflatedFiller(HEAD, 400 * MB, TAIL)), 'xlsx');
    expect(out.error).toMatch(/展開後のサイズが大きすぎる/);
    expect(out.maxRssKb).toBeLessThan(LIMIT_KB);
  }, 120_000);

  it('a shared string table of 15 million one-letter strings (250 MB inflated): refused', async () => {
    const sst = await deflatedFiller(`<sst xmlns="${NS}">`, 250 * MB, '</sst>', '<si><t>a</t></si>');
    const out = await measure(
      'strings',
      xlsx(`${HEAD}<row r="2"><c r="A2" t="s"><v>0</v></c></row>${TAIL}`, sst),
      'xlsx',
    );
    expect(out.error).toMatch(/展開後のサイズが大きすぎる/);
    expect(out.maxRssKb).toBeLessThan(LIMIT_KB);
  }, 120_000);

  it('200,000 rows of one cell at column XFD (7 MB of XML): every row read', async () => {
    const data = Array.from(
      { length: 199_999 },
      (_, i) => `<row r="${i + 2}"><c r="XFD${i + 2}"><v>${i}</v></c></row>`,
    ).join('');
    const out = await measure('wide', xlsx(HEAD + data + TAIL), 'xlsx');
    expect(out.error).toBeNull();
    expect(out.rows).toBe(200_000);
    expect(out.maxRssKb).toBeLessThan(LIMIT_KB);
  }, 120_000);

  it('.xls: the most rows BIFF8 has, A1:IV65536 (one number a row; SheetJS writes bigger ones too slowly for a test: 26 s for 4 columns)', async () => {
    const data: XLSX.CellObject[][] = Array.from({ length: 65_536 }, (_, r) => [{ t: 'n', v: r } as XLSX.CellObject]);
    data[0]![255] = { t: 'n', v: -1 };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, { '!ref': 'A1:IV65536', '!data': data } as XLSX.WorkSheet, 'パソコン');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect(buf.length).toBeLessThan(20 * MB);
    const out = await measure('xls-cells', buf, 'xls');
    expect(out.error).toBeNull();
    expect(out.rows).toBe(65_536);
    expect(out.maxRssKb).toBeLessThan(LIMIT_KB);
  }, 120_000);
});
