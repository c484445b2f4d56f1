/**
 * 管理者 makes an API key for a tool in the app (read-only by default), sees its secret once, the
 * tool uses it, and the key is revoked from the list: at 1280 px and 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, launchBrowser, newPage, signIn } from './support/browser';

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

describe('API keys (web)', () => {
  test('create a read-only key, see the secret once, use it from a tool, revoke it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/api_keys');
    await page.getByRole('heading', { level: 1, name: 'APIキー' }).waitFor();
    const name = `在庫連携 ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'キーを作成' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'キーを作成' });
    await dialog.getByRole('button', { name: '作成', exact: true }).click();
    await dialog.getByText('名前を入力してください。').waitFor();
    await dialog.getByLabel('名前').fill(name);
    await dialog.getByLabel('権限').selectOption('DEVICE_ADMIN');
    expect(await dialog.getByLabel('読み取り専用').isChecked()).toBe(true);
    let found = await axeViolations(page, { include: '[role="dialog"]' });
    expect(found, describeFindings('create key dialog', found)).toEqual([]);
    await shot(page, 'desktop-api-key-create');
    await dialog.getByRole('button', { name: '作成', exact: true }).click();
    const secretBox = page.getByTestId('api-key-secret').getByRole('textbox');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^ipk_/);
    await shot(page, 'desktop-api-key-secret');
    await page.getByRole('button', { name: '閉じる' }).click();

    // The tool: a bearer request with the key, no session cookie.
    const tool = await fetch(new URL('/api/computers?limit=1', page.url()), {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(tool.status).toBe(200);
    const write = await fetch(new URL('/api/computers', page.url()), {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(403);

    const row = page.getByTestId('api-keys-table').getByRole('row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain('有効');
    expect(await row.innerText()).toContain('デバイス管理者・読み取り専用');
    expect(await row.innerText()).not.toContain(secret);
    found = await axeViolations(page);
    expect(found, describeFindings('api keys page', found)).toEqual([]);
    await shot(page, 'desktop-api-keys');
    await row.getByRole('button', { name: `「${name}」を失効` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '失効' }).click();
    // The row's own 失効 button says 失効 too: the revoke is done when the button is gone and the status says so.
    await row.getByRole('button', { name: `「${name}」を失効` }).waitFor({ state: 'detached' });
    expect(await row.innerText()).toContain('失効');
    const after = await fetch(new URL('/api/computers?limit=1', page.url()), {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(after.status).toBe(401);
    await context.close();
  });

  test('the list at 390 px', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'admin', { landing: '/schedules/sp' });
    await page.goto('/api_keys');
    await page.getByRole('heading', { level: 1, name: 'APIキー' }).waitFor();
    await page.getByTestId('api-keys-table').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'narrow-api-keys');
    await context.close();
  });
});
