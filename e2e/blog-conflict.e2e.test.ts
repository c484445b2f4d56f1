import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { launchBrowser, newPage, signInRetrying as signIn } from './support/browser';

/** Issue 39, defect 3: an edit conflict on a post never loses what anyone typed. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const editor = (page: Page) => page.getByTestId('blog-editor');

async function openForEdit(page: Page, id: number) {
  await page.goto(`/blog/${id}`);
  await page.getByRole('button', { name: '編集' }).click();
  await editor(page).locator('.ce-paragraph').first().waitFor();
}

/** A new paragraph typed after the body's last one. */
async function appendParagraph(page: Page, text: string) {
  await editor(page).locator('.ce-paragraph').last().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(text);
}

const bodyTexts = (page: Page) => editor(page).locator('.ce-paragraph').allInnerTexts();

/** 田中 美咲 in two browsers, both editing a new post of hers with this body. */
async function twoBrowsersEditing(title: string, html: string) {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await signIn(a.page, 'staff');
  await signIn(b.page, 'staff');
  const categories = (await (await a.page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  const club = categories.find((c) => c.category_name === '部活動・サークル')!.category_id;
  const made = await a.page.request.post('/api/blogs', { data: { title, content: html, category_id: club } });
  const id = ((await made.json()) as { blog_id: number }).blog_id;
  await openForEdit(a.page, id);
  await openForEdit(b.page, id);
  return { a, b, id };
}

describe('an edit conflict on a post', () => {
  test('the same person in two browsers: the second save merges field by field and block by block, keeping both texts', async () => {
    const { a, b, id } = await twoBrowsersEditing('衝突の確認', '<p>はじめに</p><p>おわりに</p>');
    await a.page.getByLabel('タイトル').fill('A のタイトル');
    await appendParagraph(a.page, 'A の追記');
    await b.page.getByLabel('タイトル').fill('B のタイトル');
    await appendParagraph(b.page, 'B の追記');

    await a.page.getByRole('button', { name: '保存', exact: true }).click();
    await a.page.waitForURL((u) => u.pathname === '/blog');

    await b.page.getByRole('button', { name: '保存', exact: true }).click();
    const merge = b.page.getByTestId('conflict-merge');
    await merge.waitFor();
    // The same person on another device: said so, not named as someone else.
    expect(await merge.innerText()).toContain('別の画面（別の端末）');
    const title = merge.locator('[data-testid="merge-clash"][data-field="title"]');
    expect(await title.innerText()).toContain('A のタイトル');
    expect(await b.page.getByRole('textbox', { name: 'タイトル' }).inputValue()).toBe('B のタイトル');
    const clash = b.page.getByTestId('body-clash');
    await clash.waitFor();
    expect(await b.page.getByTestId('body-clash-theirs').innerText()).toContain('A の追記');
    await b.page.screenshot({ path: 'e2e/artifacts/desktop-blog-conflict.png', fullPage: true });
    const found = await axeViolations(b.page, { include: '[data-testid="body-clash"]' });
    expect(found, describeFindings('the body conflict', found)).toEqual([]);

    // Taking the saved body, then one's own again: what was typed is still there.
    await clash.getByLabel('保存されている本文').check();
    await expect.poll(() => bodyTexts(b.page)).toEqual(['はじめに', 'おわりに', 'A の追記']);
    await clash.getByLabel('あなたの本文').check();
    await expect.poll(() => bodyTexts(b.page)).toEqual(['はじめに', 'おわりに', 'B の追記']);
    // Both together, and the title as typed here: saved against the saved version, in one go.
    await clash.getByLabel('両方をまとめる（両方で書かれた段落をすべて残す）').check();
    await expect
      .poll(async () => (await bodyTexts(b.page)).sort())
      .toEqual(['A の追記', 'B の追記', 'おわりに', 'はじめに']);
    await b.page.getByRole('button', { name: '保存', exact: true }).click();
    await b.page.waitForURL((u) => u.pathname === '/blog');
    const saved = (await (await b.page.request.get(`/api/blogs/${id}`)).json()) as { title: string; content: string };
    expect(saved.title).toBe('B のタイトル');
    expect(saved.content).toContain('A の追記');
    expect(saved.content).toContain('B の追記');
    await Promise.all([a.context.close(), b.context.close()]);
  });

  test('a field only the other side changed is taken, and an untouched body becomes the saved one', async () => {
    const { a, b, id } = await twoBrowsersEditing('片方だけの変更', '<p>元の本文</p>');
    await appendParagraph(a.page, 'A が書いた段落');
    await a.page.getByRole('button', { name: '保存', exact: true }).click();
    await a.page.waitForURL((u) => u.pathname === '/blog');

    await b.page.getByLabel('タイトル').fill('B が直したタイトル');
    await b.page.getByRole('button', { name: '保存', exact: true }).click();
    await b.page.getByTestId('conflict-merge').waitFor();
    expect(await b.page.getByTestId('body-clash').count()).toBe(0);
    await expect.poll(() => bodyTexts(b.page)).toEqual(['元の本文', 'A が書いた段落']);
    await b.page.getByRole('button', { name: '保存', exact: true }).click();
    await b.page.waitForURL((u) => u.pathname === '/blog');
    const saved = (await (await b.page.request.get(`/api/blogs/${id}`)).json()) as { title: string; content: string };
    expect(saved.title).toBe('B が直したタイトル');
    expect(saved.content).toContain('A が書いた段落');
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
