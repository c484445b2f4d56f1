import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE, signIn } from './support/browser';

/** Screenshots for a human look (e2e/artifacts/, not committed). */
const out = fileURLToPath(new URL('./artifacts/', import.meta.url));

let browser: Browser;
beforeAll(async () => {
  fs.mkdirSync(out, { recursive: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string, fullPage = false) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle');
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  expect(fs.statSync(file).size).toBeGreaterThan(5_000);
}

describe('screenshots', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['narrow', PHONE],
  ] as const) {
    const narrow = label === 'narrow';
    const landing = narrow ? '/schedules/sp' : '/schedules';

    test(`${label}: login`, async () => {
      const { context, page } = await newPage(browser, viewport);
      await page.goto('/login');
      await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
      await shot(page, `${label}-login`);
      await page.getByLabel('ID', { exact: true }).fill('admin');
      await page.getByLabel('パスワード', { exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'ログイン', exact: true }).click();
      await page.getByTestId('login-error').waitFor();
      await shot(page, `${label}-login-error`);
      await context.close();
    });

    test(`${label}: shell as admin and as staff`, async () => {
      for (const who of ['admin', 'staff']) {
        const { context, page } = await newPage(browser, viewport);
        await signIn(page, who, { landing });
        await page.getByRole('heading', { level: 1 }).waitFor();
        await shot(page, `${label}-shell-${who}`);
        if (who === 'staff') {
          await page.goto('/computers');
          await page.getByTestId('forbidden-page').waitFor();
          await shot(page, `${label}-forbidden-staff`);
        } else {
          await page.goto('/profile_list');
          await page.getByTestId('profile-cards').waitFor();
          await shot(page, `${label}-profile-list-admin`);
        }
        if (narrow) {
          await page.goto('/home');
          await page.getByTestId('home-page').waitFor();
          await shot(page, `${label}-home-${who}`, true);
          await page.getByRole('button', { name: 'メニューを開く' }).click();
          await page.getByRole('menu').waitFor();
          await page.waitForTimeout(400); // let the overlay's open animation finish
          await shot(page, `${label}-menu-${who}`);
        }
        await context.close();
      }
    });

    test(`${label}: English`, async () => {
      const { context, page } = await newPage(browser, viewport);
      await page.goto('/login');
      await page.evaluate(() => window.localStorage.setItem('intranet.locale', 'en'));
      await page.reload();
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await shot(page, `${label}-login-en`);
      await page.getByLabel('ID', { exact: true }).fill('admin');
      await page.getByLabel('Password', { exact: true }).fill('intranet-demo');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((u) => u.pathname === landing);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await shot(page, `${label}-shell-admin-en`);
      if (narrow) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('menu').waitFor();
        await page.waitForTimeout(400);
        await shot(page, `${label}-menu-admin-en`);
      }
      await context.close();
    });
  }
});
