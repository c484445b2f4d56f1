import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export const DEMO_PASSWORD = 'intranet-demo';

/** This worker's platform (global-setup.ts starts one per worker). */
export function baseURL(): string {
  const urls = inject('baseURLs');
  return urls[(Number(process.env.VITEST_POOL_ID) || 1) - 1] ?? urls[0];
}

/** This worker's platform's DATA_DIR (an operator command joins its embedded PostgreSQL through it). */
export function dataDir(): string {
  const dirs = inject('dataDirs');
  return dirs[(Number(process.env.VITEST_POOL_ID) || 1) - 1] ?? dirs[0];
}

/** The origin this worker's platform lists in ALLOWED_ORIGINS: a test serves another tool's page there. */
export function toolOrigin(): string {
  const origins = inject('toolOrigins');
  return origins[(Number(process.env.VITEST_POOL_ID) || 1) - 1] ?? origins[0];
}

/** Debian's Chromium, never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: baseURL(), locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

export async function fillLogin(page: Page, loginId: string, password: string, rememberMe = false) {
  // The pre-rendered sign-in page (web/scripts/prerender.mjs) submits nothing until the app has taken it over.
  await page.waitForFunction(() => !document.querySelector('#root > [data-prerendered]'));
  await page.getByLabel('ID', { exact: true }).fill(loginId);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  const remember = page.getByLabel('ログイン状態を保持する');
  if (rememberMe) await remember.check();
  else await remember.uncheck();
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
}

/** Signs in through the form and waits for the landing page. */
export async function signIn(page: Page, loginId: string, opts: { rememberMe?: boolean; landing?: string } = {}) {
  await page.goto('/login');
  await fillLogin(page, loginId, DEMO_PASSWORD, opts.rememberMe);
  await page.waitForURL((u) => u.pathname === (opts.landing ?? '/schedules'));
}

/**
 * Sign-in, tried once more when the form or the landing page was slow to appear (the busy screens'
 * suites), saying so. A sign-in the platform refused is a failure, with the form's message.
 */
export async function signInRetrying(page: Page, loginId: string, opts: { landing?: string } = {}) {
  try {
    await signIn(page, loginId, opts);
  } catch (err) {
    const refusal = await page
      .getByTestId('login-error')
      .textContent({ timeout: 500 })
      .catch(() => null);
    if (refusal) throw new Error(`sign-in as ${loginId} refused: ${refusal}`, { cause: err });
    console.warn(
      `sign-in as ${loginId} did not finish (${(err as Error).message.split('\n')[0]}); signing in once more`,
    );
    await signIn(page, loginId, opts);
  }
}

/** Checkboxes of the lists write the URL in a transition: click, then wait for the state. */
export async function setChecked(page: Page, label: string, on: boolean) {
  const box = page.getByLabel(label);
  if ((await box.isChecked()) !== on) await box.click();
  await expect.poll(() => box.isChecked()).toBe(on);
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'メインメニュー' });
}

/** A value of a record in view mode (the detail screens' description list): its <dd>, by its label. */
export function recordValue(page: Page, label: string) {
  return page
    .locator('dl > div')
    .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
    .locator('dd');
}

/**
 * Picks a menu item until its effect shows (at most three tries): a popup menu sometimes loses the
 * click on an item under load (seen for the language menu, a comment's ⋯ menu and the narrow layout's
 * menu in CI runs: the menu stayed open, or closed without acting). `open` shows the menu when the
 * item is not visible; `reached` waits (briefly) for the effect. A retry is reported.
 */
export async function chooseFromMenu(
  item: Locator,
  open: () => Promise<unknown>,
  reached: () => Promise<unknown>,
  what: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (!(await item.isVisible())) await open();
    await item.click();
    try {
      await reached();
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      console.warn(`${what}: the menu's choice did not take (try ${attempt}); choosing again`);
    }
  }
}
