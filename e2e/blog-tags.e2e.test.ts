import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import { cardTitled, clubCategory, shot, unique } from './support/blog-comments';

/** Issue 40: the company's tags are not bounded; the tag dialog and the feed's tag filter find them by typing, a page at a time. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function makeTags(page: Page, prefix: string, n: number): Promise<{ id: number; content: string }[]> {
  const made: { id: number; content: string }[] = [];
  for (let i = 0; i < n; i++) {
    const content = `${prefix}-${String(i).padStart(3, '0')}`;
    const r = await page.request.post('/api/blog_tags', { data: { tag_content: content } });
    expect(r.status()).toBe(201);
    made.push({ id: ((await r.json()) as { tag_id: number }).tag_id, content });
  }
  return made;
}

describe('tags, many of them', () => {
  test('the tag dialog searches, shows 100 at a time with さらに表示, and keeps what was chosen across searches and pages', async () => {
    const { page } = await newPage(browser);
    await signIn(page, 'staff');
    const prefix = unique('頁タグ').replace(/\s/g, '');
    const tags = await makeTags(page, prefix, 130);
    await page.goto('/blog/new');
    await page.getByRole('button', { name: 'タグ: 選択' }).click();
    const dialog = page.getByTestId('blog-tag-dialog');
    await dialog.getByTestId('blog-tag-table').locator('tr[data-row-id]').first().waitFor();
    await dialog.getByTestId('blog-tag-search').fill(prefix);
    const count = dialog.getByTestId('blog-tag-count');
    await expect.poll(() => count.innerText()).toBe('130件中 100件を表示');
    await dialog.getByRole('checkbox', { name: `${tags[0]!.content}を選択` }).check();
    await dialog.getByTestId('blog-tag-more').click();
    await expect.poll(() => count.innerText()).toBe('130件中 130件を表示');
    expect(await dialog.getByTestId('blog-tag-more').count()).toBe(0);
    await dialog.getByRole('checkbox', { name: `${tags[129]!.content}を選択` }).check();
    // Another search: what was chosen stays chosen.
    await dialog.getByTestId('blog-tag-search').fill(`${prefix}-05`);
    await expect.poll(() => count.innerText()).toBe('10件中 10件を表示');
    expect(await dialog.innerText()).toContain('2件選択中');
    const found = await axeViolations(page, { include: '[data-testid="blog-tag-dialog"]' });
    expect(found, describeFindings('the tag dialog', found)).toEqual([]);
    await shot(page, 'desktop-blog-tag-dialog-search');
    await dialog.getByTestId('blog-tag-search').fill('存在しないタグ名の検索');
    await expect.poll(() => dialog.innerText()).toContain('該当するタグがありません。');
    await page.getByRole('button', { name: '決定' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('blog-tag').allInnerTexts()).toEqual([tags[0]!.content, tags[129]!.content]);
  });

  test('the feed’s tag filter finds a tag by typing, on a phone too, and a reload keeps it', async () => {
    const { page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    const [tag] = await makeTags(page, unique('絞込タグ').replace(/\s/g, ''), 1);
    const title = unique('タグで絞り込む投稿');
    const created = await page.request.post('/api/blogs', {
      data: { title, content: '<p>タグの確認</p>', category_id: await clubCategory(page), blog_tags: String(tag!.id) },
    });
    expect(created.status()).toBe(201);

    await page.goto('/blog/sp');
    await page.getByTestId('blog-card').first().waitFor();
    const open = page.getByRole('button', { name: 'フィルター' });
    await open.click();
    const field = page.getByTestId('blog-tag-filter');
    await field.click();
    await field.pressSequentially(tag!.content.slice(0, 8));
    const choices = page.getByTestId('blog-tag-choices');
    await choices.getByRole('option', { name: tag!.content }).waitFor();
    await shot(page, 'phone-blog-tag-filter');
    await choices.getByRole('option', { name: tag!.content }).click();
    expect(await field.inputValue()).toBe(tag!.content);
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tag')).toBe(String(tag!.id));
    // The unfiltered page (which holds the post too, as the newest) gives way to the filtered one.
    await expect.poll(() => page.getByTestId('blog-grid').getByTestId('blog-card').count()).toBe(1);
    await cardTitled(page, title).waitFor();
    await page.reload();
    await cardTitled(page, title).waitFor();
    await open.click();
    await expect.poll(() => page.getByTestId('blog-tag-filter').inputValue()).toBe(tag!.content);
  });
});
