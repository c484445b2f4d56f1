import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import { ask } from './support/graphql';

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

const like = (page: Page, id: number, liked = true) =>
  ask(page, `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`, { id, on: liked });
const me = async (page: Page) => (await ask<{ me: { id: number; name: string } }>(page, '{ me { id name } }')).me;

/** A category of the test's own (created by `page`, an admin) that exactly `memberIds` read and write. */
async function ownCategory(page: Page, name: string, memberIds: number[]): Promise<number> {
  const made = await page.request.post('/api/blog_category', {
    data: { category_name: name, permissions: ['書き込み', '閲覧'], employees: memberIds, departments: [] },
    headers: { 'X-Requested-With': 'fetch' },
  });
  expect(made.status()).toBe(201);
  return ((await made.json()) as { category_id: number }).category_id;
}

/** A post by `page`'s employee in the category; its id. */
async function postIn(page: Page, categoryId: number, title: string, content: string): Promise<number> {
  const posted = await page.request.post('/api/blogs', { data: { title, content, category_id: categoryId } });
  expect(posted.status()).toBe(201);
  return ((await posted.json()) as { blog_id: number }).blog_id;
}

describe('the bell groups a post’s likes into one item', () => {
  test('three colleagues like staff’s post: one item 「…さん他2人が…いいねしました」, newest first, updated live by a new like and an unlike, on desktop and at 390 px', async () => {
    const pages = await Promise.all([
      newPage(browser),
      newPage(browser, PHONE),
      newPage(browser),
      newPage(browser),
      newPage(browser),
    ]);
    const [author, phone, a, b, c] = pages;
    await signIn(author!.page, 'staff');
    await signIn(phone!.page, 'staff', { landing: '/schedules/sp' });
    for (const [x, login] of [
      [a!, 'admin'],
      [b!, 'devadmin'],
      [c!, 'sysadmin'],
    ] as const)
      await signIn(x.page, login);
    const people = await Promise.all([author!, a!, b!, c!].map((x) => me(x.page)));
    const [staff, first, second, third] = people;

    // A category of their own (created by admin), so all four read it.
    const name = `E2E 通知まとめ ${Date.now().toString(36)}`;
    const categoryId = await ownCategory(
      a!.page,
      name,
      people.map((p) => p.id),
    );
    const title = `まとめのテスト ${Date.now().toString(36)}`;
    const postId = await postIn(author!.page, categoryId, title, '<p>いいねをまとめる</p>');

    await like(a!.page, postId);
    await like(b!.page, postId);
    const item = (page: Page) => page.getByTestId('notification-item').filter({ hasText: `「${title}」` });
    await author!.page.getByTestId('notification-bell').click();
    await expect
      .poll(() => item(author!.page).innerText())
      .toContain(`${second!.name}さん他1人があなたの投稿「${title}」にいいねしました`);

    // Live, with the list open: a third like updates the item (still one), newest actor first.
    await like(c!.page, postId);
    await expect
      .poll(() => item(author!.page).innerText())
      .toContain(`${third!.name}さん他2人があなたの投稿「${title}」にいいねしました`);
    expect(await item(author!.page).count()).toBe(1);
    expect(await item(author!.page).getAttribute('data-unread')).not.toBeNull();
    await shot(author!.page, 'desktop-notifications-grouped');

    await phone!.page.getByTestId('notification-bell').click();
    await expect.poll(() => item(phone!.page).innerText()).toContain(`${third!.name}さん他2人`);
    const box = await phone!.page.getByTestId('notification-panel').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await shot(phone!.page, 'phone-notifications-grouped');

    // An unlike takes its actor out: the newest is the second again.
    await like(c!.page, postId, false);
    await expect.poll(() => item(author!.page).innerText()).toContain(`${second!.name}さん他1人`);
    expect(await item(author!.page).count()).toBe(1);
    expect(first!.id).not.toBe(staff!.id);
    await Promise.all(pages.map((x) => x.context.close()));
  });
});

describe('the bell keeps what もっと見る loaded', () => {
  test('すべて既読にする and a live change while the list is open read it anew with the added page: every item shown before stays, the new one on top', async () => {
    const author = await newPage(browser);
    const liker = await newPage(browser);
    // An employee no other test signs in as: their bell holds only this test's items.
    await signIn(author.page, 'makoto.nakamura');
    await signIn(liker.page, 'admin');
    const people = await Promise.all([author, liker].map((x) => me(x.page)));
    const name = `E2E もっと見る ${Date.now().toString(36)}`;
    const categoryId = await ownCategory(
      liker.page,
      name,
      people.map((p) => p.id),
    );
    const post = (title: string) => postIn(author.page, categoryId, title, '<p>通知の続き</p>');
    // 22 liked posts: 22 items, a page of 20 and two more.
    const stamp = Date.now().toString(36);
    for (let i = 1; i <= 22; i++) await like(liker.page, await post(`続きの通知 ${stamp} ${i}`));

    // Only this test's items: a company-wide 必読 elsewhere in the run asks this employee too.
    const items = author.page.getByTestId('notification-item').filter({ hasText: `続きの通知 ${stamp} ` });
    await author.page.getByTestId('notification-bell').click();
    await expect.poll(() => items.count()).toBe(20);
    await author.page.getByTestId('notification-panel').getByRole('button', { name: 'もっと見る' }).click();
    await expect.poll(() => items.count()).toBe(22);
    // すべて既読にする reads the list anew too: the added page stays, every item now read.
    await author.page.getByTestId('notification-read-all').click();
    await expect.poll(() => author.page.locator('[data-testid="notification-item"][data-unread]').count()).toBe(0);
    expect(await items.count()).toBe(22);
    const before = await items.allInnerTexts();

    // Live, with the list open: one more like.
    await like(liker.page, await post(`続きの通知 ${stamp} 23`));
    await expect.poll(async () => (await items.allInnerTexts())[0]).toContain(`続きの通知 ${stamp} 23`);
    await expect.poll(() => items.count()).toBe(23);
    expect((await items.allInnerTexts()).slice(1)).toEqual(before);
    await Promise.all([author, liker].map((x) => x.context.close()));
  });
});
