import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function search(page: Page, words: string) {
  const box = page.getByTestId('blog-search').getByRole('textbox');
  await box.fill(words);
  await box.press('Enter');
}

/**
 * Search with several words (issue 26): words no other test writes (鮪, 鰆, with this run's stamp),
 * separated by a full-width space, find only the post having both (one in its title, the other in
 * its body), each marked; quotes keep a phrase; six words are refused before anything is asked.
 */
describe('blog search with several words (web)', () => {
  test('every word must be found and each is marked; a quoted phrase; too many words refused', async () => {
    const stamp = Date.now().toString(36);
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    const categories = (await (await page.request.get('/api/blog_category')).json()) as {
      category_id: number;
      category_name: string;
    }[];
    const dev = categories.find((c) => c.category_name === '開発ブログ')!.category_id;
    const write = async (title: string, content: string) => {
      const r = await page.request.post('/api/blogs', { data: { title, content, category_id: dev } });
      expect(r.status()).toBe(201);
    };
    await write(`鮪の漬け ${stamp}`, '<p>付け合わせは鰆の西京焼きです。</p>');
    await write(`鮪 ${stamp}`, '<p>ほかの魚はありません。</p>');

    await page.goto('/blog');
    await search(page, `鮪\u3000鰆 ${stamp}`);
    const ours = page.getByTestId('blog-search-hit').filter({ hasText: stamp });
    await expect.poll(() => ours.count(), { timeout: 30_000 }).toBe(1);
    expect(await ours.getAttribute('data-matched')).toBe('CONTENT');
    expect(await ours.getByTestId('blog-search-title').locator('mark').allInnerTexts()).toEqual(['鮪', stamp]);
    expect(await ours.getByTestId('blog-search-snippet').locator('mark').allInnerTexts()).toEqual(['鰆']);
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'e2e/artifacts/desktop-blog-search-terms.png' });

    const phrase = `"鮪の漬け" ${stamp}`;
    expect(
      ((await (await page.request.get(`/api/blog_search?q=${encodeURIComponent(phrase)}`)).json()) as unknown[]).length,
    ).toBe(1);
    await search(page, phrase);
    await expect
      .poll(() => page.getByTestId('blog-search-hit').filter({ hasText: stamp }).count(), { timeout: 30_000 })
      .toBe(1);
    await expect
      .poll(() =>
        page
          .getByTestId('blog-search-hit')
          .filter({ hasText: stamp })
          .getByTestId('blog-search-title')
          .locator('mark')
          .allInnerTexts(),
      )
      .toEqual(['鮪の漬け', stamp]);

    await search(page, 'あ い う え お か');
    await expect
      .poll(() => page.getByTestId('blog-search').innerText())
      .toContain('検索する言葉は5つまでにしてください（スペースで区切った言葉の数）。');
    await context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'devadmin', { landing: '/schedules/sp' });
    await phone.page.goto('/blog/sp');
    await search(phone.page, `鮪\u3000鰆 ${stamp}`);
    await expect
      .poll(() => phone.page.getByTestId('blog-search-hit').filter({ hasText: stamp }).count(), { timeout: 30_000 })
      .toBe(1);
    await phone.page.waitForTimeout(300);
    await phone.page.screenshot({ path: 'e2e/artifacts/phone-blog-search-terms.png' });
    await phone.context.close();
  });
});
