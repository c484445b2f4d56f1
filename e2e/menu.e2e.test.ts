import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage, sidebar, signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Links of the desktop sidebar, by href. */
async function sidebarHrefs(page: Page): Promise<string[]> {
  await sidebar(page).waitFor();
  return sidebar(page)
    .locator('a[href]')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
}

const ADMIN_ONLY = ['/employees', '/departments', '/api_keys', '/blog_category'];
const NOT_GENERAL = ['/computers', '/smartphones', '/microsoft_office'];
const EVERYONE = ['/schedules', '/blog', '/blog/statistics', '/profile', '/profile_list'];

describe('role-dependent menu (spec section 6)', () => {
  test('一般 (staff) sees only schedule, blog and profile entries', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const hrefs = await sidebarHrefs(page);
    expect(hrefs.sort()).toEqual([...EVERYONE].sort());
    const nav = sidebar(page);
    for (const name of [
      '社員',
      '部署',
      'パソコン',
      'スマートフォン',
      'Microsoft Office',
      '設定',
      'マスタ管理',
      '組織',
      'デバイス管理',
    ]) {
      expect(await nav.getByText(name, { exact: true }).count(), name).toBe(0);
    }
    for (const name of ['スケジュール', '自分のプロフィール', '統計']) {
      expect(await nav.getByText(name, { exact: true }).count(), name).toBe(1);
    }
    await context.close();
  });

  test('管理者 (admin) sees every entry', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    const hrefs = await sidebarHrefs(page);
    expect(hrefs.sort()).toEqual([...ADMIN_ONLY, ...NOT_GENERAL, ...EVERYONE].sort());
    const nav = sidebar(page);
    for (const name of ['社員', '部署', 'パソコン', 'スマートフォン', 'Microsoft Office', '設定']) {
      expect(await nav.getByText(name, { exact: true }).count(), name).toBe(1);
    }
    await context.close();
  });

  test('デバイス管理者 (devadmin) sees devices but not staff, departments or blog settings', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    const hrefs = await sidebarHrefs(page);
    expect(hrefs.sort()).toEqual([...NOT_GENERAL, ...EVERYONE].sort());
    await context.close();
  });

  test('staff opening /computers directly sees the no-permission page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/computers');
    const forbidden = page.getByTestId('forbidden-page');
    await forbidden.waitFor();
    expect(await forbidden.innerText()).toContain('この画面を表示する権限がありません');
    expect(new URL(page.url()).pathname).toBe('/computers');
    for (const path of ['/employees', '/departments/detail/3', '/blog_category/new', '/microsoft_office']) {
      await page.goto(path);
      await page.getByTestId('forbidden-page').waitFor();
    }
    // Screens for everyone open normally.
    await page.goto('/profile_list');
    await page.getByRole('heading', { level: 1, name: 'プロフィール一覧' }).waitFor();
    await context.close();
  });

  test('every row of the route table has its screen; unknown paths a not-found page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    for (const [path, testId] of [
      ['/profile', 'profile-page'],
      ['/profile_list', 'profile-list-page'],
    ]) {
      await page.goto(path);
      await page.getByTestId(testId).waitFor();
    }
    await page.goto('/no/such/page');
    await page.getByTestId('not-found-page').waitFor();
    await context.close();
  });
});
