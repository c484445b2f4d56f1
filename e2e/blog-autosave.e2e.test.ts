import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { launchBrowser, newPage, PHONE, signInRetrying as signIn } from './support/browser';
import { clubCategory } from './support/blog-comments';

/** Issue 39: what is typed into a post survives a crashed page, a closed tab and a lost connection. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const editor = (page: Page) => page.getByTestId('blog-editor');
const bodyTexts = (page: Page) => editor(page).locator('.ce-paragraph').allInnerTexts();
const kept = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('intranet.draft.')));
/** Waits until the browser keeps a draft holding `text` (a keep follows a pause in typing). */
const keptWith = (page: Page, text: string) =>
  expect
    .poll(
      () =>
        page.evaluate(() =>
          Object.keys(localStorage)
            .filter((k) => k.startsWith('intranet.draft.'))
            .map((k) => localStorage.getItem(k) ?? ''),
        ),
      { timeout: 10_000 },
    )
    .toEqual([expect.stringContaining(text)]);

async function typeBody(page: Page, text: string) {
  await editor(page).locator('.ce-paragraph').last().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(text);
}

describe('autosave of a post being written', () => {
  test('a new post typed into a tab that goes without unloading is offered back, restored whole, and gone once saved', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog/new');
    await editor(page).locator('.ce-paragraph').first().waitFor();
    await page.getByLabel('タイトル').fill('書きかけの投稿');
    await typeBody(page, 'クラッシュ前に書いた段落');
    await keptWith(page, 'クラッシュ前に書いた段落');
    // The tab goes without unloading: no question, no React cleanup (as when it crashes).
    await page.close({ runBeforeUnload: false });
    const again = await context.newPage();
    await again.goto('/blog/new');
    const offer = again.getByTestId('draft-offer');
    await offer.waitFor();
    expect(await offer.innerText()).toContain('保存されていない下書きがあります。復元しますか？');
    const found = await axeViolations(again, { include: '[data-testid="draft-offer"]' });
    expect(found, describeFindings('the draft offer', found)).toEqual([]);
    await again.screenshot({ path: 'e2e/artifacts/desktop-blog-draft-offer.png' });
    await again.getByRole('button', { name: '復元する' }).click();
    await expect.poll(() => again.getByLabel('タイトル').inputValue()).toBe('書きかけの投稿');
    await expect.poll(() => bodyTexts(again)).toContain('クラッシュ前に書いた段落');
    expect(await offer.count()).toBe(0);

    // Saved: the draft goes, and a new post starts empty.
    await again.getByRole('button', { name: 'カテゴリ: 選択' }).click();
    const dialog = again.getByTestId('blog-category-dialog');
    await dialog.locator('tr', { hasText: '部活動・サークル' }).click();
    await again.getByRole('button', { name: '決定' }).click();
    await dialog.waitFor({ state: 'detached' });
    await again.getByRole('button', { name: '保存', exact: true }).click();
    await again.waitForURL((u) => u.pathname === '/blog');
    expect(await kept(again)).toEqual([]);
    await again.goto('/blog/new');
    await editor(again).locator('.ce-paragraph').first().waitFor();
    expect(await again.getByTestId('draft-offer').count()).toBe(0);
    await context.close();
  });

  test('on a phone: edits of a post closed mid-typing, saved elsewhere since, come back merged with the saved version', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    const made = await page.request.post('/api/blogs', {
      data: { title: '自動保管の確認', content: '<p>元の本文</p>', category_id: await clubCategory(page) },
    });
    const id = ((await made.json()) as { blog_id: number }).blog_id;
    await page.goto(`/blog/sp/${id}`);
    await page.getByRole('button', { name: '編集' }).click();
    await editor(page).locator('.ce-paragraph').first().waitFor();
    await typeBody(page, '電車で書いた段落');
    await keptWith(page, '電車で書いた段落');
    await page.close({ runBeforeUnload: false });

    // Meanwhile the title is changed from a desktop.
    const desk = await newPage(browser);
    await signIn(desk.page, 'staff');
    const current = (await (await desk.page.request.get(`/api/blogs/${id}`)).json()) as { version: number };
    const put = await desk.page.request.put(`/api/blogs/${id}`, {
      data: {
        title: '机で直したタイトル',
        content: '<p>元の本文</p>',
        category_id: await clubCategory(desk.page),
        version: current.version,
      },
      headers: { 'X-Requested-With': 'fetch' },
    });
    expect(put.status(), await put.text()).toBe(200);
    await desk.context.close();

    const again = await context.newPage();
    await again.goto(`/blog/sp/${id}`);
    await again.getByTestId('draft-offer').waitFor();
    await again.screenshot({ path: 'e2e/artifacts/phone-blog-draft-offer.png' });
    await again.getByRole('button', { name: '復元する' }).click();
    // Merged from the version it was typed on: the desk's title taken, the paragraph typed on the phone kept.
    const merge = again.getByTestId('conflict-merge');
    await merge.waitFor();
    expect(await merge.innerText()).toContain('下書きを保管した後に、この投稿は保存されています。');
    await expect.poll(() => again.getByLabel('タイトル').inputValue()).toBe('机で直したタイトル');
    await expect.poll(() => bodyTexts(again)).toEqual(['元の本文', '電車で書いた段落']);
    await again.getByRole('button', { name: '保存', exact: true }).click();
    await again.waitForURL((u) => u.pathname === '/blog/sp');
    const saved = (await (await again.request.get(`/api/blogs/${id}`)).json()) as { title: string; content: string };
    expect(saved.title).toBe('机で直したタイトル');
    expect(saved.content).toContain('電車で書いた段落');
    expect(await kept(again)).toEqual([]);
    await context.close();
  });

  test('throwing the edits away (破棄する, or leaving through the question) leaves nothing kept; so does signing out', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const typeTitle = async (p: Page, title: string) => {
      await p.goto('/blog/new');
      await editor(p).locator('.ce-paragraph').first().waitFor();
      await p.getByLabel('タイトル').fill(title);
      await keptWith(p, title);
    };
    /** The tab closed without a question; the same post opened in a new one. */
    const reopen = async (p: Page) => {
      await p.close({ runBeforeUnload: false });
      const next = await context.newPage();
      await next.goto('/blog/new');
      await next.getByTestId('draft-offer').waitFor();
      return next;
    };
    await typeTitle(page, '捨てる投稿');
    const second = await reopen(page);
    await second.getByRole('button', { name: '破棄する' }).click();
    expect(await kept(second)).toEqual([]);
    expect(await second.getByLabel('タイトル').inputValue()).toBe('');

    // Typed again, then キャンセル → 変更を破棄して移動.
    await second.getByLabel('タイトル').fill('また捨てる投稿');
    await keptWith(second, 'また捨てる投稿');
    await second.getByRole('button', { name: 'キャンセル' }).click();
    await second.getByRole('button', { name: '変更を破棄して移動' }).click();
    await second.waitForURL((u) => u.pathname === '/blog');
    expect(await kept(second)).toEqual([]);

    // Kept, then signed out: a shared PC keeps nothing of the person.
    await typeTitle(second, '共有 PC の投稿');
    const third = await reopen(second);
    await third.getByRole('button', { name: 'ログアウト' }).click();
    await third.waitForURL((u) => u.pathname === '/login');
    expect(await kept(third)).toEqual([]);
    await context.close();
  });
});
