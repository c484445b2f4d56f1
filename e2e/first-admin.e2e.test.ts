/**
 * The operator's first step and the new administrator's first sign-in: `npm run admin -- create`
 * (the compiled CLI, joining this worker's platform through its DATA_DIR) prints a one-time password;
 * signing in with it shows only the password change (at 1280 px and 390 px), whose errors are said
 * once each; after it the app opens where it was asked to, and the old password no longer works.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, dataDir, fillLogin, launchBrowser, newPage } from './support/browser';

const repoRoot = path.resolve(import.meta.dirname, '..');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function adminCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const { KAFKA_BROKERS: _k, DATABASE_URL: _d, ...env } = process.env;
    execFile(
      process.execPath,
      [path.join(repoRoot, 'dist/bin/admin.js'), ...args],
      { cwd: repoRoot, env: { ...env, DATA_DIR: dataDir(), LOG_LEVEL: 'warn' } },
      (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)),
    );
  });
}

async function firstAdmin(login: string): Promise<string> {
  const out = await adminCli([
    'create',
    '--login',
    login,
    '--name',
    '初代 管理者',
    '--email',
    `${login}@example.co.jp`,
  ]);
  return /初回パスワード（この1回だけ表示します）: (\S+)/.exec(out)![1]!;
}

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

describe('the first administrator', () => {
  test('signs in with the one-time password, must change it (errors said once), then lands on the wanted page', async () => {
    const login = `first-${Date.now().toString(36)}`;
    const oneTime = await firstAdmin(login);
    const { context, page } = await newPage(browser);
    await page.goto('/employees');
    await page.waitForURL((u) => u.pathname === '/login');
    await fillLogin(page, login, oneTime);
    const screen = page.getByTestId('change-password');
    await screen.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('パスワードの変更');
    expect(await screen.innerText()).toContain('初代 管理者 さん、初回ログインのため');
    expect(await page.getByRole('navigation').count()).toBe(0); // no menu until it is changed
    const found = await axeViolations(page);
    expect(found, describeFindings('change password', found)).toEqual([]);
    await shot(page, 'desktop-first-password-change');

    // Mismatch is caught before sending; a wrong current password is said at its field, once.
    await page.getByLabel('今のパスワード（仮パスワード）').fill(oneTime);
    await page.getByLabel('新しいパスワード', { exact: true }).fill('kaisha-portal-2026');
    await page.getByLabel('新しいパスワード（確認）').fill('kaisha-portal-2027');
    await page.getByRole('button', { name: '変更して始める' }).click();
    await page.getByText('新しいパスワードが一致しません。').waitFor();
    await page.getByLabel('今のパスワード（仮パスワード）').fill('wrong-one-time');
    await page.getByLabel('新しいパスワード（確認）').fill('kaisha-portal-2026');
    await page.getByRole('button', { name: '変更して始める' }).click();
    await page.getByText('今のパスワードが正しくありません。').waitFor();
    expect(await page.getByText('今のパスワードが正しくありません。').count()).toBe(1);
    expect(await page.getByRole('alert').filter({ hasText: 'パスワードを変更できませんでした' }).count()).toBe(0);

    await page.getByLabel('今のパスワード（仮パスワード）').fill(oneTime);
    await page.getByRole('button', { name: '変更して始める' }).click();
    await page.getByRole('heading', { level: 1, name: '社員' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/employees');
    expect(await page.getByTestId('current-user-name').innerText()).toBe('初代 管理者');
    // The one-time password is gone; the new one signs in straight to the app.
    const api = await context.request.post('/api/auth/login', { data: { loginId: login, password: oneTime } });
    expect(api.status()).toBe(401);
    await context.close();
  });

  test('the same screen at 390 px', async () => {
    const login = `phone-${Date.now().toString(36)}`;
    const oneTime = await firstAdmin(login);
    const { context, page } = await newPage(browser, PHONE);
    await page.goto('/login');
    await fillLogin(page, login, oneTime);
    await page.getByTestId('change-password').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const found = await axeViolations(page);
    expect(found, describeFindings('change password, 390 px', found)).toEqual([]);
    await shot(page, 'narrow-first-password-change');
    await context.close();
  });
});
