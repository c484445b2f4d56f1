import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chooseFromMenu, launchBrowser, newPage, PHONE, sidebar, signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('narrow layout (390 × 844)', () => {
  test('sign-in lands on /schedules/sp; no sidebar; the popup menu lists the entries and navigates', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'admin', { landing: '/schedules/sp' });
    await page.getByRole('heading', { level: 1, name: 'スケジュール' }).waitFor();
    expect(await sidebar(page).count()).toBe(0);

    await page.getByRole('button', { name: 'メニューを開く' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allInnerTexts();
    expect(items.map((s) => s.trim())).toEqual([
      'ホーム',
      '社員',
      '部署',
      'パソコン',
      'スマートフォン',
      'Microsoft Office',
      'APIキー',
      'スケジュール',
      '設定',
      '一覧',
      '統計',
      '自分のプロフィール',
      '一覧',
    ]);
    await chooseFromMenu(
      menu.getByRole('menuitem', { name: 'パソコン' }),
      () => page.getByRole('button', { name: 'メニューを開く' }).click(),
      () => page.waitForURL((u) => u.pathname === '/computers/sp', { timeout: 5000 }),
      'narrow',
    );
    await page.getByRole('heading', { level: 1, name: 'パソコン一覧' }).waitFor();
    await context.close();
  });

  test('staff’s popup menu has only the entries the role may use', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.getByRole('button', { name: 'メニューを開く' }).click();
    const items = await page.getByRole('menu').getByRole('menuitem').allInnerTexts();
    expect(items.map((s) => s.trim())).toEqual([
      'ホーム',
      'スケジュール',
      '一覧',
      '統計',
      '自分のプロフィール',
      '一覧',
    ]);
    await context.close();
  });

  test('/home shows big buttons to the main areas, filtered by role', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.goto('/home');
    await page.getByTestId('home-page').waitFor();
    const tiles = page.locator('[data-testid^="home-tile-"]');
    expect(await tiles.evaluateAll((as) => as.map((a) => a.getAttribute('data-testid')))).toEqual([
      'home-tile-schedules',
      'home-tile-blog',
      'home-tile-blogStatistics',
      'home-tile-profile',
      'home-tile-profileList',
    ]);
    const labels = await tiles.allInnerTexts();
    for (const [i, label] of [
      'スケジュール',
      'ブログ一覧',
      '月別ブログ統計',
      '自分のプロフィール',
      'プロフィール一覧',
    ].entries()) {
      expect(labels[i]).toContain(label);
    }
    const box = await tiles.first().boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(80); // large touch targets
    expect(await tiles.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/schedules/sp',
      '/blog/sp',
      '/blog/statistics',
      '/profile/sp',
      '/profile_list/sp',
    ]);
    await tiles.first().click();
    await page.waitForURL((u) => u.pathname === '/schedules/sp');
    await context.close();
  });

  test('on a mobile browser /blog opens /blog/sp', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.goto('/blog');
    await page.waitForURL((u) => u.pathname === '/blog/sp');
    await page.getByRole('heading', { level: 1, name: 'ブログ一覧' }).waitFor();
    await context.close();
  });

  test('nothing overflows horizontally at 390 px', async () => {
    const { context, page } = await newPage(browser, PHONE);
    for (const path of ['/login']) {
      await page.goto(path);
      await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await signIn(page, 'admin', { landing: '/schedules/sp' });
    for (const path of ['/home', '/schedules/sp', '/computers', '/microsoft_office/new']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await context.close();
  });
});
