import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { launchBrowser, newPage, PHONE, signInRetrying as signIn } from './support/browser';

/** Issue 39: a post is seen as readers will see it before it is saved, on a desktop's width and a phone's. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const editor = (page: Page) => page.getByTestId('blog-editor');

async function settled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .filter((a) => a.timeline === document.timeline && a.effect?.getComputedTiming().endTime !== Infinity)
      .every((a) => a.playState !== 'running'),
  );
}

describe('the preview of a post being written', () => {
  test('desktop: the title and the body as the server renders it, bold kept and nothing saved; the phone width is 390 px', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog/new');
    await editor(page).locator('.ce-paragraph').first().click();
    await page.getByLabel('タイトル').fill('プレビューの確認');
    await editor(page).locator('.ce-paragraph').first().click();
    await page.keyboard.type('ふつうの文と');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('太字');
    await page.keyboard.press('Control+b');
    await page.getByTestId('blog-preview-open').click();
    const preview = page.getByTestId('blog-preview');
    const frame = preview.getByTestId('blog-preview-frame');
    await frame.waitFor();
    expect(await frame.locator('h2').innerText()).toBe('プレビューの確認');
    expect(await preview.getByTestId('blog-preview-body').locator('b').innerText()).toBe('太字');
    await settled(page);
    const found = await axeViolations(page, { include: '[data-testid="blog-preview"]' });
    expect(found, describeFindings('the preview', found)).toEqual([]);
    await page.screenshot({ path: 'e2e/artifacts/desktop-blog-preview.png' });
    await preview.getByRole('button', { name: 'スマートフォン' }).click();
    await expect.poll(() => frame.evaluate((e) => e.getBoundingClientRect().width)).toBe(390);
    await page.getByRole('button', { name: '閉じる' }).last().click();
    await preview.waitFor({ state: 'detached' });
    // Still editing, nothing saved.
    expect(await page.getByLabel('タイトル').inputValue()).toBe('プレビューの確認');
    const mine = (await (await page.request.get('/api/blogs?mine=1&limit=200')).json()) as { title: string }[];
    expect(mine.filter((p) => p.title === 'プレビューの確認')).toEqual([]);
    await context.close();
  });

  test('phone: full screen, at the phone width', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.goto('/blog/sp/new');
    await editor(page).locator('.ce-paragraph').first().click();
    await page.getByLabel('タイトル').fill('電話でのプレビュー');
    await editor(page).locator('.ce-paragraph').first().click();
    await page.keyboard.type('スマートフォンで読む人の見え方');
    await page.getByTestId('blog-preview-open').click();
    await page.getByTestId('blog-preview-frame').waitFor();
    expect(await page.getByTestId('blog-preview-body').innerText()).toContain('スマートフォンで読む人の見え方');
    await settled(page);
    await page.screenshot({ path: 'e2e/artifacts/phone-blog-preview.png' });
    await context.close();
  });
});
