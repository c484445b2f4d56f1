import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newPhonePage } from './support/axe';
import { launchBrowser, newPage, signInRetrying } from './support/browser';
import { focusState, hasFocus, tabTo } from './support/keyboard';

/**
 * Full keyboard use (issue 22): lists, dialogs, pickers and the week grid work without a mouse,
 * every Tab stop shows where the focus is, Escape closes a dialog and the focus goes back to the
 * control that opened it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Sets the sequential focus starting point at the page title (a click on text focuses nothing). */
async function startAtTitle(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().click();
}

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}

/** Escape closes `dialog`, and the focus goes back to `opener`. */
async function escapeBackTo(page: Page, dialog: Locator, opener: Locator) {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => isFocused(opener)).toBe(true);
}

async function openSchedules(page: Page) {
  await signInRetrying(page, 'admin');
  await page.locator('[data-testid="grid-row"]').first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

describe('keyboard', () => {
  test('a list: Tab reaches the rows with the focus visible at every stop, Enter opens the record', async () => {
    const { context, page } = await newPage(browser);
    await signInRetrying(page, 'admin');
    await page.goto('/computers');
    const row = page.getByTestId('computers-table').locator('tbody tr').first();
    await row.waitFor();
    await startAtTitle(page);
    const { invisible } = await tabTo(page, row);
    expect(invisible, `Tab stops without a visible focus: ${invisible.join(', ')}`).toEqual([]);
    const id = await row.getAttribute('data-row-id');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === `/computers/${id}`);
    await context.close();
  });

  test('the week grid: Enter on a cell’s add button opens the dialog with the focus inside; Escape closes it and the focus returns', async () => {
    const { context, page } = await newPage(browser);
    await openSchedules(page);
    const add = page.getByTestId('grid-add').first();
    await startAtTitle(page);
    const { invisible } = await tabTo(page, add, { max: 120 });
    expect(invisible, `Tab stops without a visible focus: ${invisible.join(', ')}`).toEqual([]);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: '予定作成' });
    await dialog.getByTestId('field-title').waitFor();
    expect(await hasFocus(dialog)).toBe(true);
    await escapeBackTo(page, dialog, add);
    expect((await focusState(page)).visible).toBe(true);
    await context.close();
  });

  test('the week grid: an entry opens its details with Enter; Escape closes them and the focus returns to the entry', async () => {
    const { context, page } = await newPage(browser);
    await openSchedules(page);
    const entry = page.getByTestId('entry').first();
    await entry.waitFor();
    await startAtTitle(page);
    await tabTo(page, entry, { max: 200 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: '予定詳細' });
    await dialog.getByTestId('field-title').waitFor();
    expect(await hasFocus(dialog)).toBe(true);
    await escapeBackTo(page, dialog, entry);
    await context.close();
  });

  test('the attendee picker: search by typing, tick with Space, confirm with Enter; the focus returns to the picker button', async () => {
    const { context, page } = await newPage(browser);
    await openSchedules(page);
    await page.getByTestId('grid-add').first().focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: '予定作成' });
    await dialog.getByTestId('field-title').waitFor();
    const before = await dialog.getByTestId('attendee').count();

    const pick = dialog.getByTestId('pick-attendees');
    await tabTo(page, pick);
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: '参加者の選択' });
    const search = picker.getByTestId('picker-search');
    await search.waitFor();
    expect(await hasFocus(picker)).toBe(true);
    await tabTo(page, search);
    await page.keyboard.type('高橋');
    const row = picker.getByTestId('picker-row').filter({ hasText: '高橋' }).first();
    await row.waitFor();
    const box = row.getByRole('checkbox');
    await tabTo(page, box);
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(true);
    await tabTo(page, picker.getByRole('button', { name: 'OK', exact: true }));
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => dialog.getByTestId('attendee').count()).toBe(before + 1);
    await expect.poll(() => isFocused(pick)).toBe(true);

    // Escape in the picker closes the picker only.
    await page.keyboard.press('Enter');
    await search.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    await expect.poll(() => isFocused(pick)).toBe(true);
    await context.close();
  });

  test('the import dialog: Escape closes it, the focus returns to its opener', async () => {
    const { context, page } = await newPage(browser);
    await signInRetrying(page, 'admin');
    await page.goto('/computers');
    await page.getByTestId('computers-table').locator('tbody tr').first().waitFor();
    const importButton = page.getByRole('button', { name: 'Excel取り込み' });
    await startAtTitle(page);
    await tabTo(page, importButton);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'パソコンをExcelから取り込む' });
    await dialog.waitFor();
    expect(await hasFocus(dialog)).toBe(true);
    await escapeBackTo(page, dialog, importButton);
    await context.close();
  });

  test('narrow: the menu button opens the menu, arrows move in it, Escape closes it and the focus returns', async () => {
    const { context, page } = await newPhonePage(browser);
    await signInRetrying(page, 'admin', { landing: '/schedules/sp' });
    const menuButton = page.getByRole('button', { name: 'メニューを開く' });
    await startAtTitle(page);
    await tabTo(page, menuButton, { back: true });
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await hasFocus(menu)).toBe(true);
    await escapeBackTo(page, menu, menuButton);

    // The day's add button opens the dialog; Escape closes it back onto the button.
    const add = page
      .getByTestId('member')
      .first()
      .getByRole('button', { name: /予定を追加/ });
    await add.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: '予定作成' });
    await dialog.getByTestId('field-title').waitFor();
    await expect.poll(() => hasFocus(dialog)).toBe(true);
    await escapeBackTo(page, dialog, add);
    await context.close();
  });
});
