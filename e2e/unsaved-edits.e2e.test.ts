import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, sidebar, signInRetrying as signIn } from './support/browser';

/**
 * Issue 22, item 5: unsaved edits are never lost without a question. A link or the back button asks
 * in a Primer dialog (stay keeps the edits, leave goes); closing the tab asks the browser's way.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const leaveDialog = (page: Page) => page.getByRole('alertdialog', { name: '保存していない変更があります' });

/** Opens the first record of a list in the app (so the back button has an in-app step) and edits a field. */
async function editFirst(page: Page, list: string, table: string, field: string, value: string) {
  await page.goto(list);
  await page.getByTestId(table).locator('tbody tr').first().dblclick();
  await page.waitForURL((u) => /\/\d+$/.test(u.pathname));
  await page.getByRole('button', { name: '編集' }).click();
  await page.getByLabel(field, { exact: true }).fill(value);
  return new URL(page.url()).pathname;
}

describe('unsaved edits ask before they are lost (issue 22, item 5)', () => {
  test('computer detail: the sidebar and the back button ask; stay keeps the edits, leave goes', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    const path = await editFirst(page, '/computers', 'computers-table', 'メーカー', '未保存のメーカー');

    await sidebar(page).getByRole('link', { name: '社員' }).click();
    await leaveDialog(page).getByText('このページを離れると、編集中の内容は失われます。').waitFor();
    await page.screenshot({ path: 'e2e/artifacts/leave-question-desktop.png' });
    await leaveDialog(page).getByRole('button', { name: '編集を続ける' }).click();
    await leaveDialog(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await page.getByLabel('メーカー', { exact: true }).inputValue()).toBe('未保存のメーカー');

    await page.evaluate(() => history.back());
    await leaveDialog(page).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe(path);
    await leaveDialog(page).getByRole('button', { name: '編集を続ける' }).click();
    expect(await page.getByLabel('メーカー', { exact: true }).inputValue()).toBe('未保存のメーカー');
    expect(new URL(page.url()).pathname).toBe(path);

    await page.evaluate(() => history.back());
    await leaveDialog(page).getByRole('button', { name: '変更を破棄して移動' }).click();
    await page.waitForURL((u) => u.pathname === '/computers');
    await page.getByTestId('computers-table').waitFor();
    await context.close();
  });

  test('closing or reloading the tab with unsaved edits asks the browser’s way; without edits it does not', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await editFirst(page, '/smartphones', 'smartphones-table', 'キャリア', '未保存のキャリア');
    // The guard is armed once a route change asks (the same effect adds the beforeunload listener).
    await sidebar(page).getByRole('link', { name: 'パソコン' }).click();
    await leaveDialog(page).getByRole('button', { name: '編集を続ける' }).click();
    const asked = new Promise<string>((resolve, reject) => {
      page.once('dialog', (d) => (resolve(d.type()), void d.accept()));
      setTimeout(() => reject(new Error('the browser did not ask before closing the tab')), 10_000);
    });
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');

    const second = await context.newPage();
    await second.goto('/computers');
    await second.getByTestId('computers-table').locator('tbody tr').first().dblclick();
    await second.getByRole('button', { name: '編集' }).click();
    let dialogs = 0;
    second.on('dialog', (d) => (dialogs++, void d.accept()));
    await second.reload();
    await second.getByRole('button', { name: '編集' }).waitFor();
    expect(dialogs).toBe(0);
    await context.close();
  });

  test('every master-data form holds: employee, department, smartphone, Office account, a new computer', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    const forms: [string, string, string][] = [
      ['/employees', 'employees-table', '氏名'],
      ['/departments', 'departments-table', '部署名'],
      ['/smartphones', 'smartphones-table', 'キャリア'],
      ['/microsoft_office', 'office-accounts-table', 'アカウント'],
    ];
    for (const [list, table, field] of forms) {
      const path = await editFirst(page, list, table, field, 'edited@example.com');
      await sidebar(page).getByRole('link', { name: 'パソコン' }).click();
      await leaveDialog(page).getByRole('button', { name: '編集を続ける' }).click();
      expect(new URL(page.url()).pathname, list).toBe(path);
      // Cancel (which asks on its own) leaves edit mode; the page is then free to go.
      await page.getByRole('button', { name: 'キャンセル' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'はい' }).click();
      await sidebar(page).getByRole('link', { name: 'パソコン' }).click();
      await page.waitForURL((u) => u.pathname === '/computers');
    }
    await page.goto('/computers');
    await page.getByRole('button', { name: '追加', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'パソコン登録' }).waitFor();
    await page.getByLabel('メーカー', { exact: true }).fill('新しいメーカー');
    await sidebar(page).getByRole('link', { name: '社員' }).click();
    await leaveDialog(page).getByRole('button', { name: '変更を破棄して移動' }).click();
    await page.waitForURL((u) => u.pathname === '/employees');
    await context.close();
  });

  test('a save goes back to the list without a question', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await editFirst(page, '/smartphones', 'smartphones-table', 'キャリア', `e2e-${Date.now().toString(36)}`);
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL((u) => u.pathname === '/smartphones');
    expect(await leaveDialog(page).count()).toBe(0);
    await context.close();
  });

  test('the schedule dialog at 390 px: the back button asks and stay keeps the typed title', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'admin', { landing: '/schedules/sp' });
    // An in-app step to go back to: the home page, then its schedule tile (a link inside the app, no menu animation to race).
    await page.goto('/home');
    await page.getByTestId('home-page').waitFor();
    await page.locator('a[href="/schedules/sp"]').first().click();
    await page.waitForURL((u) => u.pathname === '/schedules/sp');
    await page.getByTestId('my-day-add').click();
    const dialog = page.getByRole('dialog', { name: '予定作成' });
    await dialog.getByTestId('field-title').fill('未保存の予定');
    await page.evaluate(() => history.back());
    await leaveDialog(page).getByRole('button', { name: '編集を続ける' }).waitFor();
    await page.screenshot({ path: 'e2e/artifacts/leave-question-390.png' });
    await leaveDialog(page).getByRole('button', { name: '編集を続ける' }).click();
    expect(await dialog.getByTestId('field-title').inputValue()).toBe('未保存の予定');
    expect(new URL(page.url()).pathname).toBe('/schedules/sp');
    await page.evaluate(() => history.back());
    await leaveDialog(page).getByRole('button', { name: '変更を破棄して移動' }).click();
    await page.waitForURL((u) => u.pathname === '/home');
    await context.close();
  });
});
