import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { loginToken } from '../../test/http.js';

let p: TestPlatform;
let token: string;
beforeAll(async () => {
  p = await startTestPlatform();
  token = await loginToken(p.url, 'devadmin');
});
afterAll(async () => p?.close());

describe('the import template', () => {
  it('marks its example row as one, and 説明 says to delete it before importing (issue 42, item 5)', async () => {
    const res = await fetch(`${p.url}/api/computers/import/template`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = wb.getWorksheet('パソコン')!;
    const example = sheet.getRow(2);
    const assetColumn = (sheet.getRow(1).values as unknown[]).indexOf('管理番号');
    expect(example.getCell(assetColumn).value).toBe('PC-0100');
    expect(example.getCell(assetColumn).font?.italic).toBe(true);
    expect(String(example.getCell(1).note)).toContain('記入例');
    const rules = wb.getWorksheet('説明')!.getRow(1).getCell(2).value;
    expect(String(rules)).toMatch(/2行目.*記入例.*削除/);
  });
});
