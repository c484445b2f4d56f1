import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage, signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('logout', () => {
  test('returns to /login; afterwards /schedules redirects to /login', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'sysadmin', { rememberMe: true });
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByText('ログアウトしました。').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('intranet.login'))).toBeNull();
    expect((await context.cookies()).find((c) => c.name === 'intranet_sid')).toBeUndefined();

    await page.goto('/schedules');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/schedules');
    await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
    await context.close();
  });

  test('a stale display cache does not let anyone in: the session cookie decides', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.evaluate(() =>
      window.localStorage.setItem(
        'intranet.login',
        JSON.stringify({ employee_id: 1, full_name: '山田 太郎', role: 'ADMIN' }),
      ),
    );
    await page.goto('/employees');
    // Someone was signed in here and is no longer: the sign-in page says the session ended, whichever
    // answer (Me, or the page's own list query) reported it first.
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('reason') === 'expired');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/employees');
    await page.getByText('セッションの有効期限が切れました', { exact: false }).first().waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('intranet.login'))).toBeNull();
    await context.close();
  });
});
