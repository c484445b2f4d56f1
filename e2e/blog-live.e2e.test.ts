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

const titles = (page: Page) =>
  page.locator('[data-testid="blog-grid"] [data-testid="blog-card-title"]').allInnerTexts();
const pinnedTitles = (page: Page) => page.getByTestId('blog-pinned-item').allInnerTexts();

async function openFeed(page: Page, login: string, path = '/blog') {
  // A phone lands on the schedule's phone page.
  await signIn(page, login, { landing: path.startsWith('/blog/sp') ? '/schedules/sp' : '/schedules' });
  await page.goto(path);
  await page.getByTestId('blog-card').first().waitFor();
}

/**
 * 開発ブログ is read by 開発 and 品質保証 (devadmin and sysadmin are in 開発); staff (営業) is not a
 * member. devadmin writes through the REST facade in their browser; the others only watch their
 * feeds, which must follow without a reload.
 */
describe('blog live: a post written in one browser reaches the others without reload, only where it may be seen', () => {
  test("create, retitle, pin and delete reach a member's feed and 速報; an employee outside the category sees none of it", async () => {
    const author = await newPage(browser);
    const member = await newPage(browser);
    const phone = await newPage(browser, PHONE);
    const outsider = await newPage(browser);
    await signIn(author.page, 'devadmin');
    await openFeed(member.page, 'sysadmin');
    await openFeed(phone.page, 'devadmin', '/blog/sp');
    await openFeed(outsider.page, 'staff');
    // The feed marks the page once live; a reload would lose this mark.
    for (const p of [member.page, phone.page, outsider.page])
      await p.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    const categories = (await (await author.page.request.get('/api/blog_category')).json()) as {
      category_id: number;
      category_name: string;
    }[];
    const dev = categories.find((c) => c.category_name === '開発ブログ')!.category_id;
    // No warm-up: a post written while a feed's subscription is still registering reaches it all the
    // same (the registration's position makes the feed read again: live-registration.e2e.test.ts).
    const title = `ライブ配信の確認 ${Date.now()}`;
    const made = await author.page.request.post('/api/blogs', {
      data: { title, content: '<p>別のブラウザにすぐ届く</p>', category_id: dev },
    });
    expect(made.status()).toBe(201);
    const post = (await made.json()) as { blog_id: number; version: number };

    // The new post appears first among the unpinned cards, in the member's feed and the author's phone.
    await expect.poll(() => titles(member.page)).toContain(title);
    await expect.poll(() => titles(phone.page)).toContain(title);
    await member.page.screenshot({ path: 'e2e/artifacts/desktop-blog-live-created.png' });

    // Retitled and pinned: the post leaves the cards for 速報.
    const retitled = `${title}（更新）`;
    const put = await author.page.request.put(`/api/blogs/${post.blog_id}`, {
      data: {
        title: retitled,
        content: '<p>別のブラウザにすぐ届く</p>',
        category_id: dev,
        is_pin: true,
        version: post.version,
      },
    });
    expect(put.status()).toBe(200);
    // In 速報 now, so not listed again among the cards (neither under its old title).
    await expect.poll(() => pinnedTitles(member.page)).toContainEqual(expect.stringContaining(retitled));
    await expect.poll(() => titles(member.page)).not.toContain(retitled);
    expect(await titles(member.page)).not.toContain(title);
    await member.page.screenshot({ path: 'e2e/artifacts/desktop-blog-live-pinned.png' });
    await expect.poll(() => pinnedTitles(phone.page)).toContainEqual(expect.stringContaining(retitled));
    expect(await titles(phone.page)).not.toContain(retitled);
    await phone.page.screenshot({ path: 'e2e/artifacts/phone-blog-live.png' });

    // An open dialog follows too: deleting the post closes it and takes the card and 速報 entry away.
    await member.page.getByTestId('blog-pinned-item').filter({ hasText: retitled }).click();
    await member.page.getByTestId('blog-detail').waitFor();
    expect(
      (
        await author.page.request.delete(`/api/blogs/${post.blog_id}`, { headers: { 'X-Requested-With': 'fetch' } })
      ).status(),
    ).toBe(200);
    await member.page.getByTestId('blog-detail').waitFor({ state: 'detached' });
    await expect.poll(() => titles(member.page)).not.toContain(retitled);
    await expect.poll(() => pinnedTitles(member.page)).not.toContainEqual(expect.stringContaining(retitled));
    await expect.poll(() => titles(phone.page)).not.toContain(retitled);

    // The outsider's feed never showed it, and no page reloaded.
    const seen = [...(await titles(outsider.page)), ...(await pinnedTitles(outsider.page))];
    expect(seen.filter((t) => t.startsWith('ライブ配信の確認'))).toEqual([]);
    for (const p of [member.page, phone.page, outsider.page])
      expect(await p.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await Promise.all([author, member, phone, outsider].map((x) => x.context.close()));
  });
});
