import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { launchBrowser, newPage, PHONE, signInRetrying as signIn } from './support/browser';

/** Issue 39: every save of a post is kept; its author compares two versions and restores one. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function club(page: Page) {
  const categories = (await (await page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  return categories.find((c) => c.category_name === '部活動・サークル')!.category_id;
}

/** A post of 田中 美咲 saved three times: created, its title changed, then its body. */
async function postWithHistory(page: Page) {
  const category_id = await club(page);
  const made = await page.request.post('/api/blogs', {
    data: { title: '履歴の確認（初版）', content: '<p>はじめの段落</p><p>変わらない段落</p>', category_id },
    headers: { 'X-Requested-With': 'fetch' },
  });
  const id = ((await made.json()) as { blog_id: number }).blog_id;
  const put = async (version: number, title: string, content: string) => {
    const r = await page.request.put(`/api/blogs/${id}`, {
      data: { title, content, category_id, version },
      headers: { 'X-Requested-With': 'fetch' },
    });
    expect(r.status(), await r.text()).toBe(200);
  };
  await put(1, '履歴の確認', '<p>はじめの段落</p><p>変わらない段落</p>');
  await put(2, '履歴の確認', '<p>書き直した段落</p><p>変わらない段落</p><p>足した段落</p>');
  return id;
}

const items = (page: Page) => page.getByTestId('history-item');
/** A screenshot once the dialog has finished animating in. */
async function shot(page: Page, file: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .filter((a) => a.timeline === document.timeline && a.effect?.getComputedTiming().endTime !== Infinity)
      .every((a) => a.playState !== 'running'),
  );
  await page.screenshot({ path: file });
}

describe("a post's history", () => {
  test('the author compares versions (fields side by side, the body block by block) and restores the first one', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const id = await postWithHistory(page);
    await page.goto(`/blog/${id}`);
    await page.getByTestId('blog-history-open').click();
    const dialog = page.getByTestId('blog-history');
    await expect.poll(() => items(page).count()).toBe(3);
    expect(await items(page).nth(0).innerText()).toContain('現在の版');
    expect(await items(page).nth(0).innerText()).toContain('本文');
    expect(await items(page).nth(1).innerText()).toContain('タイトル');
    expect(await items(page).nth(2).innerText()).toContain('作成');

    // Version 3 against 2: only the body changed, a paragraph rewritten and one added.
    const body = page.getByTestId('history-body');
    await body.waitFor();
    expect(await dialog.innerText()).toContain('本文以外の項目は同じです。');
    await expect
      .poll(async () => (await body.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ')))
      .toEqual(['削除 はじめの段落', '追加 書き直した段落', '同じ 変わらない段落', '追加 足した段落']);
    const found = await axeViolations(page, { include: '[data-testid="blog-history"]' });
    expect(found, describeFindings('the history dialog', found)).toEqual([]);
    await shot(page, 'e2e/artifacts/desktop-blog-history.png');

    // Version 2 against 1: the title.
    await items(page).nth(1).click();
    const fields = page.getByTestId('history-fields');
    await fields.waitFor();
    expect(await fields.innerText()).toContain('履歴の確認（初版）');

    // Back to version 1: a new save with its title and body; the current version stays in the history.
    await items(page).nth(2).click();
    await page.getByTestId('history-restore').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'この版に戻す' }).click();
    await page.getByText('版 1 に戻しました').waitFor();
    await expect.poll(() => page.getByTestId('blog-content').innerText()).toContain('はじめの段落');
    const saved = (await (await page.request.get(`/api/blogs/${id}`)).json()) as { title: string; version: number };
    expect(saved).toMatchObject({ title: '履歴の確認（初版）', version: 4 });
    await page.getByTestId('blog-history-open').click();
    await expect.poll(() => items(page).count()).toBe(4);
    expect(await items(page).nth(0).innerText()).toContain('版 1 を復元');
    await context.close();
  });

  test('on a phone the history is a full-screen dialog; a colleague reading the post has no history to open', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    const id = await postWithHistory(page);
    await page.goto(`/blog/sp/${id}`);
    await page.getByTestId('blog-history-open').click();
    await expect.poll(() => items(page).count()).toBe(3);
    await page.getByTestId('history-body').waitFor();
    await shot(page, 'e2e/artifacts/phone-blog-history.png');
    await context.close();

    const reader = await newPage(browser);
    await signIn(reader.page, 'devadmin');
    await reader.page.goto(`/blog/${id}`);
    await reader.page.getByTestId('blog-content').waitFor();
    expect(await reader.page.getByTestId('blog-history-open').count()).toBe(0);
    expect((await reader.page.request.get(`/api/blogs/${id}/revisions`)).status()).toBe(403);
    await reader.context.close();
  });
});
