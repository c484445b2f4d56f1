/**
 * Employee profiles as people use them: find a colleague by a skill, open their profile, like it and
 * comment while they watch in another browser (live), fill in one's own profile (lists of at most
 * 10, who sees the address), see a department-only address hidden from another department; at 1280
 * px and 390 px (floating like and comment buttons). Axe clean.
 */
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, launchBrowser, newPage, signIn } from './support/browser';
import { ask } from './support/graphql';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string, fullPage = true) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage });
}

const noOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('profiles (web)', () => {
  test('find who knows 簿記, open the profile, like and comment while its owner watches live', async () => {
    const me = await newPage(browser);
    await signIn(me.page, 'admin');
    await me.page.goto('/profile_list');
    await me.page.getByTestId('profile-cards').waitFor();
    await me.page.getByTestId('profile-filter-q').fill('簿記');
    await expect
      .poll(async () => (await me.page.getByTestId('profile-card').allInnerTexts()).every((t) => t.includes('簿記')), {
        timeout: 10_000,
      })
      .toBe(true);
    const cards = me.page.getByTestId('profile-card');
    expect(await cards.count()).toBeGreaterThan(0);
    expect(await cards.first().locator('[data-hit]').count()).toBeGreaterThan(0);
    const found = await axeViolations(me.page, { include: '[data-testid="profile-list-page"]' });
    expect(found, describeFindings('profile list', found)).toEqual([]);
    await shot(me.page, 'desktop-profile-list');

    // The owner of the first card of someone still employed watches their own profile in another browser.
    const card = cards.filter({ hasNotText: '退職' }).first();
    const profileId = Number(await card.getAttribute('data-profile-id'));
    const owner = await ask<{ profile: { employeeId: number; name: string; likedByMe: boolean } }>(
      me.page,
      `query($id: Int!) { profile(id: $id) { employeeId name likedByMe } }`,
      {
        id: profileId,
      },
    );
    const login = (
      await ask<{ employee: { loginId: string } }>(me.page, `query($id: Int!) { employee(id: $id) { loginId } }`, {
        id: owner.profile.employeeId,
      })
    ).employee.loginId;
    expect(login).not.toBe('');
    const them = await newPage(browser);
    await signIn(them.page, login);
    await them.page.goto(`/profile/${profileId}`);
    await them.page.getByTestId('profile-view').waitFor();
    const theirCount = them.page.getByTestId('profile-like-count');
    const before = Number(await theirCount.innerText());

    await card.dblclick();
    await me.page.waitForURL(`**/profile/${profileId}`);
    await me.page.getByTestId('profile-view').waitFor();
    const liked = owner.profile.likedByMe;
    await me.page.getByTestId('profile-like').click();
    await expect
      .poll(async () => Number(await theirCount.innerText()), { timeout: 5_000 })
      .toBe(before + (liked ? -1 : 1));

    const text = `ライブのコメント ${Date.now().toString(36)}`;
    // Enter sends here too (the blog's rule, said under the box).
    expect(await me.page.getByTestId('profile-comment-box').innerText()).toContain('Enter で送信・Shift+Enter で改行');
    await me.page.getByTestId('profile-comment-box').getByRole('textbox').fill(text);
    await me.page.keyboard.press('Enter');
    await them.page.getByTestId('profile-comment-list').getByText(text).waitFor({ timeout: 5_000 });
    // Its author edits it in place (Enter saves); the owner's open page shows the new text and 編集済み.
    const mine = me.page.getByTestId('profile-comment').filter({ has: me.page.getByText(text, { exact: true }) });
    await mine.getByTestId('profile-comment-edit').click();
    const box = me.page.getByTestId('profile-comment-editor').getByRole('textbox', { name: 'コメントを編集' });
    await box.fill(`${text}（追記）`);
    await box.press('Enter');
    const theirs = them.page
      .getByTestId('profile-comment')
      .filter({ has: them.page.getByText(`${text}（追記）`, { exact: true }) });
    await theirs.getByTestId('comment-edited').waitFor({ timeout: 5_000 });
    expect(await theirs.getByTestId('profile-comment-edit').count()).toBe(0);
    await me.page.getByTestId('profile-likers-panel').getByText('山田 太郎').first().waitFor();
    const onProfile = await axeViolations(me.page, { include: '[data-testid="profile-page"]' });
    expect(onProfile, describeFindings('profile page', onProfile)).toEqual([]);
    await shot(me.page, 'desktop-profile');
    await Promise.all([me.context.close(), them.context.close()]);
  });

  test('one’s own profile: edit with lists of at most 10, choose who sees the address; another department sees it hidden', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/profile');
    await page.getByTestId('profile-page').waitFor();
    await page.getByTestId('profile-edit').click();
    await page.getByTestId('profile-form').waitFor();
    const skills = page.getByTestId('profile-list-skills');
    const add = skills.getByRole('button', { name: 'スキルを追加' });
    while (await add.isEnabled()) await add.click();
    expect(await skills.getByRole('textbox').count()).toBe(10);
    await skills.getByRole('textbox').nth(9).fill('統計検定2級');
    // A picture cropped to a square in the browser, and two hobby photos.
    const photo = (r: number, g: number, b: number, width = 1200, height = 800) =>
      sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer();
    await page
      .getByTestId('profile-avatar-file')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await photo(200, 80, 40) });
    await page.getByTestId('profile-crop').waitFor();
    await page.getByTestId('profile-crop').press('ArrowLeft');
    await page.getByTestId('profile-crop-zoom').fill('1.5');
    await shot(page, 'desktop-profile-crop', false);
    await page.getByRole('button', { name: 'この範囲を使う' }).click();
    await page.getByTestId('profile-avatar-field').locator('img[src^="/api/profile_images/"]').waitFor();
    await page.getByTestId('profile-photos-hobby-file').setInputFiles([
      { name: 'a.png', mimeType: 'image/png', buffer: await photo(40, 160, 90) },
      { name: 'b.png', mimeType: 'image/png', buffer: await photo(40, 90, 160, 800, 1200) },
    ]);
    await expect
      .poll(() => page.getByTestId('profile-photos-hobby').locator('img').count(), { timeout: 15_000 })
      .toBe(2);
    const bad = page.getByTestId('profile-photos-talent-file');
    await bad.setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.getByTestId('profile-photos-talent').getByRole('alert').waitFor();
    await page.getByTestId('profile-input-address').fill('大阪府大阪市北区梅田1-1');
    await page.getByTestId('profile-visibility-address').selectOption('DEPARTMENT');
    await page.getByTestId('profile-about-editor').locator('[contenteditable="true"]').first().waitFor();
    const editing = await axeViolations(page, { include: '[data-testid="profile-form"]' });
    expect(editing, describeFindings('profile form', editing)).toEqual([]);
    await shot(page, 'desktop-profile-edit');
    await page.getByTestId('profile-save').click();
    await page.getByTestId('profile-view').waitFor();
    await page.getByText('統計検定2級').waitFor();
    expect(await page.getByTestId('profile-address').innerText()).toContain('大阪府大阪市北区梅田1-1');
    // The face in the header; the hobby photos turn every 4 s but stop under the pointer.
    await page.getByTestId('profile-page').locator('header img[src^="/api/profile_images/"]').waitFor();
    const carousel = page.getByTestId('profile-hobby-carousel');
    await carousel.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    expect(await carousel.getAttribute('data-turning')).toBe('true');
    await carousel.hover();
    await expect.poll(() => carousel.getAttribute('data-turning')).toBe(null);
    const mine = (await ask<{ employeeProfile: { id: number } }>(page, `{ employeeProfile { id } }`)).employeeProfile
      .id;
    await context.close();

    // devadmin is in 開発, staff in 営業: the address is 部署内.
    const other = await newPage(browser);
    await signIn(other.page, 'devadmin');
    await other.page.emulateMedia({ reducedMotion: 'reduce' });
    await other.page.goto(`/profile/${mine}`);
    await other.page.getByTestId('profile-view').waitFor();
    // For people who ask for reduced motion, nothing turns on its own.
    expect(await other.page.getByTestId('profile-hobby-carousel').getAttribute('data-turning')).toBe(null);
    expect(await other.page.getByTestId('profile-address').innerText()).toContain('非公開');
    expect(await other.page.getByTestId('profile-edit').count()).toBe(0);
    await other.context.close();
  });

  test('390 px: one card per row, a tap opens the profile, the floating buttons open likers and comments', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.goto('/profile_list/sp');
    await page.getByTestId('profile-cards').waitFor();
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'narrow-profile-list', false);
    const card = page.getByTestId('profile-card').first();
    const id = await card.getAttribute('data-profile-id');
    await card.locator('dl').click();
    await page.waitForURL(`**/profile/sp/${id}`);
    await page.getByTestId('profile-view').waitFor();
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'narrow-profile');
    await page.getByTestId('profile-fab-likes').click();
    await page.getByRole('dialog').getByTestId('profile-like').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '閉じる' }).last().click();
    await page.getByTestId('profile-fab-comments').click();
    await page.getByRole('dialog').getByTestId('profile-comment-box').waitFor();
    await shot(page, 'narrow-profile-comments');
    await context.close();
  });
});
