/**
 * 月別ブログ統計 as staff and 管理者: this month by default, a like made in another browser shows
 * after a reload (the statistics worker's rollup), the ⓘ definitions, the long period with its
 * missing-date message, the per-employee filters; at 1280 px and 390 px.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, launchBrowser, newPage, signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true });
}

const total = async (page: Page, k: string) =>
  Number((await page.getByTestId(`stats-total-${k}`).innerText()).split('\n')[1]!.replace(/,/g, ''));

async function gql(page: Page, query: string, variables: Record<string, unknown> = {}) {
  return page.evaluate(
    async ([q, v]) => {
      const r = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: q, variables: v }),
      });
      return r.json();
    },
    [query, variables] as const,
  );
}

describe('blog statistics (web)', () => {
  test('a like in another browser reaches the month after a reload; the definitions, the long period and the filters', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    // A post of today that the admin may see, and a like by staff in a second browser.
    const cats = await gql(admin.page, `{ blogCategories { id } }`);
    const categoryId = cats.data.blogCategories[0].id;
    const created = await gql(admin.page, `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id } }`, {
      i: {
        title: `統計の確認 ${Date.now().toString(36)}`,
        categoryId,
        content: { blocks: [{ type: 'paragraph', data: { text: '本文' } }] },
      },
    });
    const postId = created.data.createBlogPost.id;

    await admin.page.goto('/blog/statistics');
    await admin.page.getByRole('heading', { level: 1, name: '月別ブログ統計' }).waitFor();
    await admin.page.getByTestId('stats-body').waitFor();
    const likesBefore = await total(admin.page, 'likes');
    expect(await total(admin.page, 'posts')).toBeGreaterThan(0);

    const staff = await newPage(browser);
    await signIn(staff.page, 'staff');
    const like = await gql(staff.page, `mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { likeCount } }`, {
      id: postId,
    });
    expect(like.errors).toBeUndefined();
    await staff.context.close();

    // The worker keeps the rollup within a second; a reload shows it.
    await expect
      .poll(
        async () => {
          await admin.page.reload();
          await admin.page.getByTestId('stats-body').waitFor();
          return total(admin.page, 'likes');
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(likesBefore + 1);
    await admin.page.getByTestId('stats-chart').waitFor();
    expect(await admin.page.getByTestId('stats-share').innerText()).toMatch(/\d+%/);
    // The top posts: the head of the per-post ranking, as bars with their figures.
    const topPosts = await admin.page.getByTestId('stats-top-posts').innerText();
    const firstRanked = (
      await admin.page.getByTestId('stats-posts').locator('tbody tr').first().locator('td').first().innerText()
    ).trim();
    expect(topPosts.split('\n')[0]).toBe(firstRanked);
    expect(topPosts).toMatch(/いいね\d+・閲覧\d+・コメント\d+/);
    expect(await admin.page.getByTestId('stats-most-liked').innerText()).toContain('統計の確認');

    await admin.page.getByTestId('stats-definitions-toggle').click();
    expect(await admin.page.getByTestId('stats-definitions').innerText()).toContain('初めて開いた');
    const found = await axeViolations(admin.page, { include: '[data-testid="blog-statistics-page"]' });
    expect(found, describeFindings('statistics page', found)).toEqual([]);
    await shot(admin.page, 'desktop-blog-statistics');

    // Long period: a missing date says so; the year's figures include this month's.
    await admin.page.getByTestId('stats-long').check();
    await admin.page.getByTestId('stats-start').fill('');
    await admin.page.getByTestId('stats-aggregate').click();
    await admin.page.getByRole('alert').filter({ hasText: '開始日と終了日を入力してください' }).waitFor();
    const year = new Date().getFullYear();
    await admin.page.getByTestId('stats-start').fill(`${year}-01-01`);
    await admin.page.getByTestId('stats-aggregate').click();
    await expect
      .poll(async () => (await admin.page.getByTestId('stats-body').innerText()).includes(`${year}/01/01`), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await total(admin.page, 'likes')).toBeGreaterThanOrEqual(likesBefore + 1);

    // The per-employee table filters by name.
    const employees = admin.page.getByTestId('stats-employees');
    await admin.page.getByLabel('氏名').fill('存在しない名前');
    await employees.getByText('条件に合う社員はいません').waitFor();

    // The export carries the period and the filters on screen; it opens with exceljs.
    await admin.page.getByLabel('氏名').fill('山田');
    const [download] = await Promise.all([
      admin.page.waitForEvent('download'),
      admin.page.getByRole('button', { name: 'Excel出力' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`月別ブログ統計_${year}0101-${year}1231.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await download.path())!) as never);
    const sheet = wb.getWorksheet('社員別')!;
    expect(String(sheet.getCell('A2').value)).toBe(`期間: ${year}/01/01 〜 ${year}/12/31`);
    expect(String(sheet.getCell('A3').value)).toBe('絞り込み: 氏名「山田」、上位20件');
    expect(await admin.page.getByLabel('氏名').inputValue()).toBe('山田');
    await admin.context.close();
  });

  test('390 px: the page fits the phone, staff see it too', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.goto('/blog/statistics');
    await page.getByTestId('stats-body').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'narrow-blog-statistics');
    await context.close();
  });
});
