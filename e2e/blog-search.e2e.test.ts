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

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

async function search(page: Page, words: string) {
  const box = page.getByTestId('blog-search').getByRole('textbox');
  await box.fill(words);
  await box.press('Enter');
}

const hits = (page: Page) => page.getByTestId('blog-search-hit');

async function categoryId(page: Page, name: string) {
  const categories = (await (await page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  return categories.find((c) => c.category_name === name)!.category_id;
}

/**
 * Search (issue 26): a two-character word no other test writes (鰯鰹, with this run's stamp in the
 * titles) is found in a title, a body and a comment, in that order, the matches marked; a hit opens
 * the post; an employee outside the category finds nothing; empty and too long queries are refused.
 */
describe('blog search (web)', () => {
  test('a two-character word is found in title, body and comment, ranked and highlighted; a hit opens the post; nobody else sees a hidden post', async () => {
    const stamp = Date.now().toString(36);
    const author = await newPage(browser);
    await signIn(author.page, 'devadmin');
    const request = author.page.request;
    const dev = await categoryId(author.page, '開発ブログ');
    const write = async (title: string, content: string) => {
      const r = await request.post('/api/blogs', { data: { title, content, category_id: dev } });
      expect(r.status()).toBe(201);
      return (await r.json()) as { blog_id: number; author_id: number };
    };
    // Oldest first: the ranking puts the title hit first although it is the oldest.
    const titled = await write(`鰯鰹の食べ比べ ${stamp}`, '<p>結果の報告です。</p>');
    await write(`週報 ${stamp}`, '<p>今週は社員食堂で<b>鰯鰹</b>定食が出ました。</p>');
    const commented = await write(`昼食 ${stamp}`, '<p>おすすめを教えてください。</p>');
    const c = await request.post('/api/comments', {
      data: { blog_id: commented.blog_id, user_id: commented.author_id, content: `鰯鰹定食がおすすめです ${stamp}` },
    });
    expect(c.status()).toBe(201);

    const page = author.page;
    await page.goto('/blog');
    await search(page, '鰯鰹');
    const results = page.getByTestId('blog-search-results');
    await results.waitFor();
    const ours = hits(page).filter({ hasText: stamp });
    await expect.poll(() => ours.count()).toBe(3);
    expect(await ours.evaluateAll((els) => els.map((e) => e.getAttribute('data-matched')))).toEqual([
      'TITLE',
      'CONTENT',
      'COMMENT',
    ]);
    // The title's match, the body's and the comment's are marked; the comment says it is one.
    expect(await ours.nth(0).getByTestId('blog-search-title').locator('mark').innerText()).toBe('鰯鰹');
    expect(await ours.nth(1).getByTestId('blog-search-snippet').locator('mark').innerText()).toBe('鰯鰹');
    expect(await ours.nth(2).getByTestId('blog-search-snippet').innerText()).toContain('コメント');
    expect(await ours.nth(2).getByTestId('blog-search-snippet').locator('mark').innerText()).toBe('鰯鰹');
    expect(page.url()).toContain('q=');
    await shot(page, 'desktop-blog-search');
    await ours.nth(0).click();
    const dialog = page.getByTestId('blog-detail');
    await dialog.waitFor();
    // The dialog shows the post the hit named (its body; the title is in the dialog's header).
    expect(await dialog.innerText()).toContain('結果の報告です。');
    await page.keyboard.press('Escape');
    // × ends the search: the feed comes back.
    await page.getByRole('button', { name: '検索をやめる' }).click();
    await page.getByTestId('blog-grid').waitFor();
    expect(await results.count()).toBe(0);

    // The phone page, 390 px wide.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'devadmin', { landing: '/schedules/sp' }); // a phone lands on the schedule's phone page
    await phone.page.goto('/blog/sp');
    await search(phone.page, '鰯鰹');
    await expect.poll(() => hits(phone.page).filter({ hasText: stamp }).count()).toBe(3);
    await shot(phone.page, 'phone-blog-search');

    // staff is not in 開発ブログ: none of it, and the page says so.
    const outsider = await newPage(browser);
    await signIn(outsider.page, 'staff');
    await outsider.page.goto('/blog');
    await search(outsider.page, `鰯鰹`);
    await outsider.page.getByTestId('blog-search-none').waitFor();
    expect(await hits(outsider.page).filter({ hasText: stamp }).count()).toBe(0);
    expect(titled.blog_id).toBeGreaterThan(0);
    for (const p of [author, phone, outsider]) await p.context.close();
  });

  test('an empty or too long query is refused with its message, before anything is asked, and clears the results on screen', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog');
    await search(page, '   ');
    await expect.poll(() => page.getByTestId('blog-search').innerText()).toContain('検索する言葉を入力してください。');
    await search(page, 'あ'.repeat(51));
    await expect
      .poll(() => page.getByTestId('blog-search').innerText())
      .toContain('検索する言葉は50文字以内にしてください。');
    expect(await page.getByTestId('blog-search-results').count()).toBe(0);
    await shot(page, 'desktop-blog-search-too-long');
    // Results on screen, then words the box refuses: the old results are no answer to them and go.
    await search(page, '年末年始');
    await hits(page).first().waitFor();
    await search(page, 'あ'.repeat(51));
    await expect.poll(() => page.getByTestId('blog-search-results').count()).toBe(0);
    await search(page, '年末年始');
    await hits(page).first().waitFor();
    await context.close();
  });
});

describe('blog search: count, order, category and period (web)', () => {
  test('the count of what is found, newest first on request, narrowed by author, category and period; at 390 px too', async () => {
    const stamp = Date.now().toString(36);
    const author = await newPage(browser);
    await signIn(author.page, 'devadmin');
    const request = author.page.request;
    const dev = await categoryId(author.page, '開発ブログ');
    const club = await categoryId(author.page, '部活動・サークル');
    const day = (offset: number) =>
      new Date(Date.now() + 9 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
    const write = async (title: string, content: string, category_id: number, offset: number) => {
      const r = await request.post('/api/blogs', {
        data: { title, content, category_id, publish_start_date: day(offset) },
      });
      expect(r.status(), await r.text()).toBe(201);
    };
    // A word no other test writes: in a title three days ago, a body two days ago, a title yesterday in another category.
    await write(`鱈鯖の記録 ${stamp}`, '<p>記録です。</p>', dev, -3);
    await write(`週報 ${stamp}`, '<p>食堂の鱈鯖定食</p>', dev, -2);
    await write(`鱈鯖部 ${stamp}`, '<p>部員募集</p>', club, -1);
    // Someone else's post with the word: 作成者 narrows it away.
    const other = await newPage(browser);
    await signIn(other.page, 'sysadmin');
    const theirs = await other.page.request.post('/api/blogs', {
      data: { title: `鱈鯖の感想 ${stamp}`, content: '<p>感想です</p>', category_id: club },
    });
    expect(theirs.status()).toBe(201);
    await other.context.close();

    const page = author.page;
    await page.goto('/blog');
    await search(page, `鱈鯖 ${stamp}`);
    const count = page.getByTestId('blog-search-count');
    await expect.poll(() => count.innerText()).toBe('4件');
    const authorField = page.getByTestId('blog-search-author');
    await authorField.click();
    await authorField.pressSequentially('高橋');
    await page
      .getByTestId('blog-search-author-choices')
      .getByRole('option')
      .filter({ hasText: '高橋 健太' })
      .first()
      .click();
    expect(await authorField.inputValue()).toBe('高橋 健太');
    await expect.poll(() => count.innerText()).toBe('3件');
    const titles = async () =>
      (await page.getByTestId('blog-search-title').allInnerTexts()).map((t) => t.replace(` ${stamp}`, ''));
    await expect.poll(titles).toEqual(['鱈鯖部', '鱈鯖の記録', '週報']);
    await page.getByTestId('blog-search-order').selectOption({ label: '新しい順' });
    await expect.poll(titles).toEqual(['鱈鯖部', '週報', '鱈鯖の記録']);
    await page.getByTestId('blog-search-category').selectOption({ label: '開発ブログ' });
    await expect.poll(titles).toEqual(['週報', '鱈鯖の記録']);
    await expect.poll(() => count.innerText()).toBe('2件');
    await page.getByTestId('blog-search-from').fill(day(-2));
    await expect.poll(titles).toEqual(['週報']);
    await expect.poll(() => count.innerText()).toBe('1件');
    await shot(page, 'desktop-blog-search-narrowed');
    // A period the wrong way round: the server's message, no stale results.
    await page.getByTestId('blog-search-to').fill(day(-3));
    await page.getByText('期間の開始日は終了日以前の日付にしてください。').waitFor();
    expect(await hits(page).count()).toBe(0);
    await author.context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'devadmin', { landing: '/schedules/sp' });
    await phone.page.goto('/blog/sp');
    await search(phone.page, `鱈鯖 ${stamp}`);
    await expect.poll(() => phone.page.getByTestId('blog-search-count').innerText()).toBe('4件');
    await shot(phone.page, 'phone-blog-search-tools');
    await phone.context.close();
  });
});
