import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE, signIn } from './support/browser';

/**
 * The screenshots of the Japanese user guide (docs/guide-ja.md): the same screens, viewports and
 * file names on every run, from the demo company. They go to e2e/artifacts/guide/ in every run, and
 * to docs/images/guide/ with DOC_IMAGES=1, so `npm test` never rewrites committed images (the demo
 * schedule follows today's date):
 *
 *   npm run build:web && DOC_IMAGES=1 npx vitest run --config e2e/vitest.config.ts e2e/guide.e2e.test.ts
 */
const out =
  process.env.DOC_IMAGES === '1'
    ? fileURLToPath(new URL('../docs/images/guide/', import.meta.url))
    : fileURLToPath(new URL('./artifacts/guide/', import.meta.url));

let browser: Browser;
beforeAll(async () => {
  fs.mkdirSync(out, { recursive: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle');
  // Dialogs and toasts animate in: wait until nothing runs.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .filter((a) => a.timeline === document.timeline && a.effect?.getComputedTiming().endTime !== Infinity)
      .every((a) => a.playState !== 'running'),
  );
  // The text cursor blinks; hide it so identical screens give identical files.
  await page.addStyleTag({ content: '*, *::before, *::after { caret-color: transparent !important; }' });
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file });
  expect(fs.statSync(file).size).toBeGreaterThan(5_000);
}

describe('user guide screenshots', () => {
  test('sign-in', async () => {
    const { context, page } = await newPage(browser, DESKTOP);
    await page.goto('/login');
    await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
    await shot(page, 'login');
    await context.close();
  });

  test('schedule: the week grid, a new entry, the phone view', async () => {
    const { context, page } = await newPage(browser, DESKTOP);
    await signIn(page, 'admin');
    await page.getByTestId('week-grid').waitFor();
    await page.getByTestId('grid-row').first().locator('[data-testid="entry"]').first().waitFor();
    await shot(page, 'schedules');
    await page.getByTestId('grid-row').first().getByTestId('grid-cell').first().hover();
    await page.getByTestId('grid-row').first().getByTestId('grid-cell').first().getByTestId('grid-add').click();
    const dialog = page.getByRole('dialog', { name: '予定作成' });
    await dialog.getByTestId('field-title').fill('週次定例');
    await shot(page, 'schedule-new');
    await context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'staff', { landing: '/schedules/sp' });
    await phone.page.getByRole('heading', { level: 1, name: 'スケジュール' }).waitFor();
    await shot(phone.page, 'schedules-phone');
    await phone.context.close();
  });

  test('staff and departments (administrator)', async () => {
    const { context, page } = await newPage(browser, DESKTOP);
    await signIn(page, 'admin');
    await page.goto('/employees');
    await page.getByTestId('pager-range').waitFor();
    await shot(page, 'employees');
    await page.goto('/departments');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    await shot(page, 'departments');
    await context.close();
  });

  test('IT assets (device administrator): list, detail with history, Excel import, Office accounts', async () => {
    const { context, page } = await newPage(browser, DESKTOP);
    await signIn(page, 'devadmin');
    await page.goto('/computers');
    await page.getByTestId('pager-range').waitFor();
    await shot(page, 'computers');
    await page.getByRole('button', { name: 'Excel取り込み' }).click();
    await page.getByRole('dialog').getByTestId('import-file').waitFor({ state: 'attached' });
    await shot(page, 'import');
    await page.goto('/computers/2');
    await page.getByTestId('device-history').waitFor();
    await shot(page, 'computer-detail');
    await page.goto('/microsoft_office');
    await page.getByTestId('pager-range').waitFor();
    await shot(page, 'office-accounts');
    await context.close();
  });
  test('profiles: the list found by a skill', async () => {
    const { context, page } = await newPage(browser, DESKTOP);
    await signIn(page, 'staff');
    await page.goto('/profile_list');
    await page.getByTestId('profile-filter-q').fill('中国語');
    await expect
      .poll(async () => (await page.getByTestId('profile-card').allInnerTexts()).every((t) => t.includes('中国語')), {
        timeout: 10_000,
      })
      .toBe(true);
    await shot(page, 'profile-list');
    await context.close();
  });
});
