import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A small workbook the way a user fills the template: two new computers and two bad rows (an unknown 状態, a formula's error value). */
async function workbook(stamp: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン');
  ws.addRow(['管理番号', 'メーカー', '型番', '状態']);
  ws.addRow([`E2E-${stamp}-1`, `Imp${stamp}`, 'Latitude 5440', '正常']);
  ws.addRow([`E2E-${stamp}-2`, `Imp${stamp}`, 'ThinkPad X1', '故障']);
  ws.addRow([`E2E-${stamp}-3`, `Imp${stamp}`, 'Surface', '行方不明']);
  ws.addRow([
    `E2E-${stamp}-4`,
    `Imp${stamp}`,
    { formula: 'VLOOKUP("X",A1:A2,2,FALSE)', result: { error: '#N/A' } },
    '正常',
  ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The first computer of `workbook` again, its 型番 cell left blank (an update that empties the field). */
async function blanked(stamp: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン');
  ws.addRow(['管理番号', 'メーカー', '型番', '状態']);
  ws.addRow([`E2E-${stamp}-1`, `Imp${stamp}`, null, '正常']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

const count = (dialog: ReturnType<Page['getByRole']>, label: string) =>
  dialog.getByTestId('import-counts').locator('div', { hasText: label }).locator('dd').innerText();

describe('computers Excel import', () => {
  test('refuses a file that is not a spreadsheet before uploading it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/computers');
    await page.getByRole('button', { name: 'Excel取り込み' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByTestId('import-file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await dialog.getByText('Excelファイル（.xlsx または .xls）を選択してください。').waitFor();
    expect(await dialog.getByRole('button', { name: '内容を確認' }).isDisabled()).toBe(true);
    // Renamed text file: the extension passes the browser, the server's magic-byte check refuses it.
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'fake.xlsx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a zip at all'),
    });
    await dialog.getByRole('button', { name: '内容を確認' }).click();
    await expect.poll(() => dialog.getByText('ファイルを受け付けられませんでした').count()).toBe(1);
    await context.close();
  });

  test('preview, import with a live progress bar, the summary with errors, then the rows in the list', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/computers');
    await page.getByRole('button', { name: 'Excel取り込み' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('link', { name: 'テンプレートをダウンロード' }).waitFor();
    await shot(page, 'desktop-import-pick');
    const stamp = String(Date.now() % 1_000_000);
    await dialog.getByTestId('import-file').setInputFiles({
      name: '資産台帳.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await workbook(stamp),
    });
    await dialog.getByRole('button', { name: '内容を確認' }).click();

    // The preview: what would happen, nothing written yet.
    await dialog.getByTestId('import-preview').waitFor({ timeout: 30_000 });
    // A Japanese file name arrives intact (multipart filename* / UTF-8).
    await dialog.getByText('「資産台帳.xlsx」を取り込むと').waitFor();
    expect(await count(dialog, '追加')).toBe('2');
    expect(await count(dialog, 'エラー')).toBe('2');
    const errors = await dialog.getByTestId('import-errors').locator('tbody tr').allInnerTexts();
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('4');
    expect(errors[0]).toContain('状態');
    expect(errors[1]).toContain('5');
    expect(errors[1]).toContain('エラー値（#N/A）が入っています');
    // The backdrop covers the header too (it is not left bright and clickable behind a modal).
    expect(await page.evaluate(() => !!document.elementFromPoint(100, 20)?.closest('header'))).toBe(false);
    await shot(page, 'desktop-import-preview');
    await page.setViewportSize(PHONE);
    await shot(page, 'narrow-import-preview');
    // The dialog is above the shell's sticky header: on a phone (full screen) its title and close
    // button are not hidden behind it.
    const title = (await dialog.getByText('パソコンをExcelから取り込む').boundingBox())!;
    expect(
      await page.evaluate(
        ([x, y]) => !!document.elementFromPoint(x, y)?.closest('[role="dialog"]'),
        [title.x + 10, title.y + title.height / 2],
      ),
    ).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await dialog.getByRole('button', { name: '取り込む（2 件）' }).click();
    await dialog.getByText('取り込みは完了しましたが、2 行でエラーがありました').first().waitFor({ timeout: 30_000 });
    expect(await dialog.getByRole('link', { name: 'エラーレポートをダウンロード' }).getAttribute('href')).toMatch(
      /^\/api\/computers\/import\/[^/]+\/errors$/,
    );
    await shot(page, 'desktop-import-done');
    await dialog.getByRole('button', { name: '閉じる' }).first().click();

    // The list (live) now holds the two new computers.
    await page.getByLabel('メーカー').fill(`Imp${stamp}`);
    await expect.poll(() => page.getByTestId('computers-table').locator('tbody tr').count()).toBe(2);

    // The same computer again with a blank cell: the preview says which field the blank empties.
    await page.getByRole('button', { name: 'Excel取り込み' }).click();
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'blank.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await blanked(stamp),
    });
    await dialog.getByRole('button', { name: '内容を確認' }).click();
    await dialog.getByTestId('import-preview').waitFor({ timeout: 30_000 });
    expect(await count(dialog, '更新')).toBe('1');
    expect(await dialog.getByTestId('import-cleared').innerText()).toBe('空欄で消去: 型番');
    await shot(page, 'desktop-import-cleared');
    await context.close();
  });
});
