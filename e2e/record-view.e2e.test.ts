import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, PHONE, launchBrowser, newPage, recordValue, signInRetrying as signIn } from './support/browser';

/**
 * Issue 22, item 6: a record in view mode is a read-only description list (label and value, legible,
 * a value that names another record links to it), not disabled inputs; Edit switches to inputs.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const viewForm = (page: Page) => page.locator('form[data-mode="view"]');

/** The id of the first list row whose cell in the column headed `header` is not empty. */
async function firstIdWith(page: Page, list: string, table: string, header: string): Promise<number> {
  await page.goto(list);
  const t = page.getByTestId(table);
  await t.locator('tbody tr').first().waitFor();
  return t.evaluate((el, h) => {
    const heads = [...el.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
    const col = heads.indexOf(h);
    const row = [...el.querySelectorAll('tbody tr')].find(
      (tr) => (tr as HTMLTableRowElement).cells[col]?.textContent?.trim() !== '—',
    );
    return Number((row as HTMLTableRowElement).cells[0].textContent);
  }, header);
}

/** View mode: a description list with these labels, no form control, values in the default text colour. */
async function expectViewMode(page: Page, labels: string[]) {
  await viewForm(page).locator('dl').first().waitFor();
  expect(await viewForm(page).locator('input, select, textarea').count()).toBe(0);
  const terms = await viewForm(page).locator('dt').allInnerTexts();
  for (const l of labels) expect(terms).toContain(l);
  const value = recordValue(page, labels[0]);
  const style = await value.evaluate((el) => ({
    color: getComputedStyle(el).color,
    opacity: getComputedStyle(el).opacity,
  }));
  expect(style).toEqual({ color: 'rgb(31, 35, 40)', opacity: '1' }); // --fgColor-default, not #818b98 at 70 %
}

const SCREENS = [
  {
    name: 'computer',
    list: '/computers',
    table: 'computers-table',
    linkHeader: '部署',
    labels: ['メーカー', '状態', '拠点', '部署', '使用者'],
    link: ['部署', /^\/departments\/\d+$/],
    edit: '部署',
  },
  {
    name: 'smartphone',
    list: '/smartphones',
    table: 'smartphones-table',
    linkHeader: '使用者',
    labels: ['電話番号', '状態', '拠点', '部署', '使用者'],
    link: ['使用者', /^\/employees\/\d+$/],
    edit: '状態',
  },
  {
    name: 'employee',
    list: '/employees',
    table: 'employees-table',
    linkHeader: '部署',
    labels: ['氏名', 'ログインID', '権限', '在籍状況', '拠点', '部署'],
    link: ['部署', /^\/departments\/\d+$/],
    edit: '権限',
  },
  {
    name: 'department',
    list: '/departments',
    table: 'departments-table',
    linkHeader: '責任者',
    labels: ['部署名', '責任者', '登録日時'],
    link: ['責任者', /^\/employees\/\d+$/],
    edit: '部署名',
  },
  {
    name: 'office-account',
    list: '/microsoft_office',
    table: 'office-accounts-table',
    linkHeader: 'ID',
    labels: ['アカウント', '状態', '使用数'],
    link: ['使用数', /^\/computers$/],
    edit: '状態',
  },
] as const;

describe('records in view mode read as description lists (issue 22, item 6)', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? '390' : 'desktop';
    test(`${size}: every detail screen shows label/value pairs with links, and Edit brings the inputs`, async () => {
      const { context, page } = await newPage(browser, viewport);
      await signIn(page, 'admin', { landing: viewport === PHONE ? '/schedules/sp' : '/schedules' });
      for (const s of SCREENS) {
        const id = await firstIdWith(page, s.list, s.table, viewport === PHONE ? 'ID' : s.linkHeader);
        await page.goto(`${s.list}/${id}`);
        await expectViewMode(page, [...s.labels]);
        const [label, href] = s.link;
        if (viewport === DESKTOP) {
          const link = recordValue(page, label).getByRole('link');
          expect(new URL((await link.getAttribute('href')) ?? '', 'http://x').pathname, s.name).toMatch(href);
        }
        if (viewport === PHONE)
          expect(await page.evaluate(() => document.documentElement.scrollWidth), s.name).toBeLessThanOrEqual(390);
        await page.screenshot({ path: `e2e/artifacts/view-${s.name}-${size}.png`, fullPage: true });
        await page.getByRole('button', { name: '編集' }).click();
        await page.locator('form[data-mode="edit"]').getByLabel(s.edit, { exact: true }).waitFor();
        expect(await page.locator('form[data-mode="edit"] dl').count(), s.name).toBe(0);
        if (s.name === 'computer')
          await page.screenshot({ path: `e2e/artifacts/edit-${s.name}-${size}.png`, fullPage: true });
        await page.getByRole('button', { name: 'キャンセル' }).click();
        await viewForm(page).waitFor();
      }
      await context.close();
    });
  }

  test('a linked value opens the record it names', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    const id = await firstIdWith(page, '/computers', 'computers-table', '部署');
    await page.goto(`/computers/${id}`);
    await recordValue(page, '部署').getByRole('link').waitFor();
    const dept = await recordValue(page, '部署').innerText();
    await recordValue(page, '部署').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: '部署詳細' }).waitFor();
    await expect.poll(() => recordValue(page, '部署名').innerText()).toBe(dept);
    await context.close();
  });

  test('a value whose choices are still on their way is not shown as 未設定', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    const id = await firstIdWith(page, '/computers', 'computers-table', '部署');
    // The choices (departments, locations, statuses) answer a second after the record.
    let held = 0;
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('query MasterOptions')) {
        held++;
        await new Promise((r) => setTimeout(r, 1500));
      }
      await route.continue();
    });
    await page.goto(`/computers/${id}`);
    await viewForm(page).locator('dl').first().waitFor();
    expect(held).toBeGreaterThan(0);
    for (const label of ['部署', '拠点', '状態'])
      expect(await recordValue(page, label).innerText(), label).not.toMatch(/未設定|^$/);
    await recordValue(page, '部署').getByRole('link').waitFor();
    expect(await recordValue(page, '部署').innerText()).not.toMatch(/未設定|読み込み中/);
    await context.close();
  });
});
