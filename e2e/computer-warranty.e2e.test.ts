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

/** A date `days` from today in Asia/Tokyo (the app's and the server's today), YYYY-MM-DD. */
const fromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' });
const rows = (page: Page) => page.getByTestId('computers-table').locator('tbody tr');

describe('computers: 保証期限 (warranty_until)', () => {
  test('the detail form sets it; the list flags 保証切れ / 保証期限間近 and filters 「保証期限が N 日以内」, on a desktop and at 390 px', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    const maker = `Warranty-${Date.now()}`;
    for (const [asset, days] of [
      [`${maker}-expired`, -5],
      [`${maker}-later`, 200],
    ] as const) {
      const r = await page.request.post('/api/computers', {
        data: { asset_number: asset, maker, status: '正常', warranty_until: fromToday(days) },
      });
      expect(r.status(), await r.text()).toBe(201);
    }
    // One through the form.
    await page.goto('/computers/new');
    await page.getByRole('heading', { level: 1, name: 'パソコン登録' }).waitFor();
    await page.getByLabel('メーカー').fill(maker);
    await page.getByLabel('管理番号').fill(`${maker}-soon`);
    await page.getByLabel('保証期限').fill(fromToday(10));
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL((u) => u.pathname === '/computers');
    await page.getByText('パソコンを登録しました').waitFor();
    // The form stays on screen until the list has rendered (its メーカー field too): type into the list's.
    await page.getByRole('heading', { level: 1, name: 'パソコン一覧' }).waitFor();
    await rows(page).first().waitFor();

    await page.getByLabel('メーカー').fill(maker);
    await expect.poll(() => rows(page).count()).toBe(3);
    const flagOf = async (asset: string) => {
      const row = rows(page).filter({ hasText: asset });
      return (await row.getByTestId('warranty-flag').count()) ? row.getByTestId('warranty-flag').innerText() : null;
    };
    expect(await flagOf(`${maker}-expired`)).toBe('保証切れ');
    expect(await flagOf(`${maker}-soon`)).toBe('保証期限間近');
    expect(await flagOf(`${maker}-later`)).toBeNull();
    await page.getByLabel('保証期限').selectOption({ label: '30日以内' });
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain(`${maker}-soon`);
    expect(new URL(page.url()).searchParams.get('warranty')).toBe('30');
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'e2e/artifacts/desktop-computers-warranty.png' });
    await page.getByLabel('保証期限').selectOption({ label: '365日以内' });
    await expect.poll(() => rows(page).count()).toBe(2);

    // The same filter from the URL at 390 px (the filters sit behind the filter button there).
    await page.setViewportSize(PHONE);
    await page.goto(`/computers/sp?maker=${encodeURIComponent(maker)}&warranty=30`);
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'e2e/artifacts/mobile-computers-warranty.png' });
    await context.close();
  });
});
