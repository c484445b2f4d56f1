import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, chooseFromMenu, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import { ask } from './support/graphql';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const badge = (page: Page) => page.getByTestId('notification-badge');
const badgeText = (page: Page) =>
  badge(page)
    .count()
    .then((n) => (n ? badge(page).innerText() : ''));

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

/** A post of `page`'s employee in 開発ブログ (read by devadmin and sysadmin), through the REST facade. */
async function postIn開発(page: Page, title: string, extra: Record<string, unknown> = {}): Promise<number> {
  const categories = (await (await page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  const dev = categories.find((c) => c.category_name === '開発ブログ')!.category_id;
  const r = await page.request.post('/api/blogs', {
    data: { title, content: '<p>通知の確認</p>', category_id: dev, ...extra },
  });
  expect(r.status()).toBe(201);
  return ((await r.json()) as { blog_id: number }).blog_id;
}

const comment = (page: Page, postId: number, content: string) =>
  ask<{ addBlogComment: { id: number } }>(
    page,
    `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`,
    { i: { postId, content } },
  );

describe('notifications: the bell follows replies and likes live, and leads to the post', () => {
  test("sysadmin likes and comments on devadmin's post; devadmin's bell counts them without reload, on desktop and phone, and an item opens the post", async () => {
    const author = await newPage(browser);
    const phone = await newPage(browser, PHONE);
    const reader = await newPage(browser);
    await signIn(author.page, 'devadmin');
    await signIn(phone.page, 'devadmin', { landing: '/schedules/sp' });
    await signIn(reader.page, 'sysadmin');
    const stamp = Date.now();
    const title = `通知のテスト ${stamp}`;
    const postId = await postIn開発(author.page, title);
    for (const p of [author.page, phone.page])
      await p.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // No warm-up: a notification written while a bell's subscription is still registering reaches
    // it all the same (the registration's position makes the bell read its count again).
    await ask(author.page, `mutation { markAllNotificationsRead }`);
    await expect.poll(() => badgeText(author.page)).toBe('');
    await expect.poll(() => badgeText(phone.page)).toBe('');

    // sysadmin likes the post from its card, then comments: both bells count each without reload.
    await reader.page.goto('/blog');
    const card = reader.page
      .getByTestId('blog-grid')
      .getByTestId('blog-card')
      .filter({ has: reader.page.getByRole('heading', { name: title, exact: true }) });
    await card.getByTestId('blog-like').click();
    await expect.poll(() => badgeText(author.page)).toBe('1');
    await comment(reader.page, postId, 'とても参考になりました。ありがとうございます。');
    await expect.poll(() => badgeText(author.page)).toBe('2');
    await expect.poll(() => badgeText(phone.page)).toBe('2');

    // The list: newest first, both unread, in Japanese.
    await author.page.getByTestId('notification-bell').click();
    const items = author.page.getByTestId('notification-item');
    await expect.poll(() => items.first().innerText()).toContain(`あなたの投稿「${title}」にコメントしました`);
    expect(await items.nth(1).innerText()).toContain(`あなたの投稿「${title}」にいいねしました`);
    expect(await items.first().getAttribute('data-unread')).not.toBeNull();
    await shot(author.page, 'desktop-notifications');

    // Opening the like item: the post's dialog, the item read, the badge one less (on the phone too).
    await items.nth(1).getByRole('button').first().click();
    await expect.poll(() => author.page.getByTestId('blog-detail').innerText()).toContain('通知の確認');
    expect(await author.page.getByRole('dialog', { name: title }).count()).toBe(1);
    await expect.poll(() => badgeText(author.page)).toBe('1');
    await expect.poll(() => badgeText(phone.page)).toBe('1');

    // The phone: the list fits 390 px; すべて既読にする clears the badge everywhere.
    await phone.page.getByTestId('notification-bell').click();
    await phone.page.getByTestId('notification-item').first().waitFor();
    const box = await phone.page.getByTestId('notification-panel').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await shot(phone.page, 'phone-notifications');
    await phone.page.getByTestId('notification-read-all').click();
    await expect.poll(() => badgeText(phone.page)).toBe('');
    await expect.poll(() => badgeText(author.page)).toBe('');
    await author.page.getByRole('button', { name: '閉じる' }).last().click();
    await author.page.getByTestId('blog-detail').waitFor({ state: 'detached' });

    // Opening the comment item (read by now): the post's comments, with the comment. The list is
    // read anew on opening (and on each live change): the item is clicked once it has been read.
    const readItem = author.page
      .locator('[data-testid="notification-panel"]:not([aria-busy])')
      .getByTestId('notification-item')
      .first();
    await chooseFromMenu(
      readItem.getByRole('button').first(),
      async () => {
        await author.page.getByTestId('notification-bell').click();
        await readItem.waitFor();
      },
      () => author.page.getByTestId('blog-comment-list').waitFor({ timeout: 5_000 }),
      'the comment notification',
    );
    await expect
      .poll(() => author.page.getByTestId('blog-comment-list').innerText())
      .toContain('とても参考になりました。ありがとうございます。');
    await author.page.keyboard.press('Escape');
    await author.page.getByTestId('blog-comments').waitFor({ state: 'detached' });

    for (const p of [author.page, phone.page])
      expect(await p.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await Promise.all([author, phone, reader].map((x) => x.context.close()));
  });
});

describe('required reading: the author asks, a reader confirms from the notification, the author sees who', () => {
  test('devadmin pins a post asking for confirmation; sysadmin opens it from the bell and confirms; devadmin sees the count and the list live, reminds and resets', async () => {
    const author = await newPage(browser);
    const reader = await newPage(browser);
    await signIn(author.page, 'devadmin');
    const title = `必読のテスト ${Date.now()}`;
    const postId = await postIn開発(author.page, title, { is_pin: true, require_confirmation: true });
    await signIn(reader.page, 'sysadmin');
    const readerName = (await ask<{ me: { name: string } }>(reader.page, '{ me { name } }')).me.name;

    // The author's dialog is open before anyone confirms: its list follows live.
    await author.page.goto(`/blog?post=${postId}`);
    const status = author.page.getByTestId('blog-reading-status');
    await expect.poll(() => status.getByTestId('blog-reading-unconfirmed').innerText()).toContain(readerName);
    expect(await status.getByTestId('blog-reading-confirmed').innerText()).toContain('いません');

    // The reader's bell names the request; its item opens the post, where 確認しました confirms it.
    await reader.page.getByTestId('notification-bell').click();
    const item = reader.page
      .getByTestId('notification-item')
      .filter({ hasText: `「${title}」の確認をお願いしています` });
    await item.getByRole('button').first().click();
    const detail = reader.page.getByTestId('blog-detail');
    await detail.getByTestId('blog-reading-confirm').click();
    await detail.getByTestId('blog-reading-done').waitFor();
    await shot(reader.page, 'desktop-required-reading-confirmed');

    await expect.poll(() => status.getByTestId('blog-reading-confirmed').innerText()).toContain(readerName);
    await expect
      .poll(() => author.page.getByTestId('blog-detail').getByTestId('blog-reading-count').innerText())
      .toBe('確認 1人');
    await shot(author.page, 'desktop-required-reading-author');

    await status.getByTestId('blog-reading-remind').click();
    await author.page.getByText(/人に催促の通知を送りました/).waitFor();
    await status.getByTestId('blog-reading-reset').click();
    await author.page.getByRole('alertdialog').getByRole('button', { name: '確認をリセット' }).click();
    await expect.poll(() => status.getByTestId('blog-reading-confirmed').innerText()).toContain('いません');
    // The reader's open dialog offers 確認しました again, without reload.
    await detail.getByTestId('blog-reading-confirm').waitFor();

    // On a phone: the 速報 row's 必読 and its button fit 390 px.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'sysadmin', { landing: '/schedules/sp' });
    await phone.page.goto('/blog/sp');
    const row = phone.page.getByTestId('blog-pinned-row').filter({ has: phone.page.getByText(title, { exact: true }) });
    await row.getByTestId('blog-reading-confirm').scrollIntoViewIfNeeded();
    await shot(phone.page, 'phone-required-reading');
    await Promise.all([author, reader, phone].map((x) => x.context.close()));
  });
});

describe("a profile's owner hears of likes and comments on it", () => {
  test("sysadmin likes and comments on devadmin's profile; devadmin's bell says so live and its item opens the profile", async () => {
    const owner = await newPage(browser);
    const visitor = await newPage(browser);
    await signIn(owner.page, 'devadmin');
    await signIn(visitor.page, 'sysadmin');
    const mine = await ask<{ employeeProfile: { id: number } | null }>(owner.page, `{ employeeProfile { id } }`);
    const profileId =
      mine.employeeProfile?.id ??
      (await ask<{ createProfile: { id: number } }>(owner.page, `mutation { createProfile(input: {}) { id } }`))
        .createProfile.id;
    await ask(owner.page, `mutation { markAllNotificationsRead }`);
    await expect.poll(() => badgeText(owner.page)).toBe('');

    await ask(visitor.page, `mutation($id: Int!) { likeProfile(id: $id, liked: false) { id } }`, { id: profileId });
    await ask(visitor.page, `mutation($id: Int!) { likeProfile(id: $id, liked: true) { id } }`, { id: profileId });
    await ask(visitor.page, `mutation($i: ProfileCommentInput!) { addProfileComment(input: $i) { id } }`, {
      i: { profileId, content: 'Python の勉強会、参加したいです' },
    });
    await expect.poll(() => badgeText(owner.page)).toBe('2');

    await owner.page.getByTestId('notification-bell').click();
    const items = owner.page.getByTestId('notification-item');
    await expect.poll(() => items.first().innerText()).toContain('あなたのプロフィールにコメントしました');
    expect(await items.first().innerText()).toContain('Python の勉強会、参加したいです');
    expect(await items.nth(1).innerText()).toContain('あなたのプロフィールにいいねしました');
    await shot(owner.page, 'desktop-notifications-profile');
    await items.first().getByRole('button').first().click();
    await owner.page.waitForURL(`**/profile/${profileId}`);
    await expect.poll(() => badgeText(owner.page)).toBe('1');
    await Promise.all([owner, visitor].map((x) => x.context.close()));
  });
});
