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

const cards = (page: Page) => page.getByTestId('blog-card');
const cardTitles = (page: Page) => page.getByTestId('blog-card-title').allInnerTexts();

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

async function searchTitle(page: Page, text: string) {
  await page.getByLabel('タイトル', { exact: true }).fill(text);
  await page.getByRole('button', { name: '検索', exact: true }).click();
}

describe('blog feed (/blog, /blog/sp)', () => {
  test('desktop: 速報 panel, cards with category colours, もっと見る, layout remembered, click opens the dialog, double click the post page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/blog');
    await cards(page).first().waitFor();
    await expect.poll(() => cards(page).count()).toBe(20);
    await shot(page, 'desktop-blog');

    // 速報: the demo's two posts pinned today (other browser tests of the run may pin more), folded away and back.
    const pinned = page.getByTestId('blog-pinned');
    await expect.poll(() => pinned.getByTestId('blog-pinned-item').count()).toBeGreaterThanOrEqual(2);
    expect(await pinned.innerText()).toContain('【重要】年末年始休業のお知らせ');
    await pinned.getByRole('button', { name: /速報/ }).click();
    await expect.poll(() => pinned.getByTestId('blog-pinned-item').count()).toBe(0);
    await pinned.getByRole('button', { name: /速報/ }).click();

    // A category label's text is black or white, whichever reads on its colour.
    const label = cards(page).first().getByTestId('blog-category');
    expect(['rgb(0, 0, 0)', 'rgb(255, 255, 255)']).toContain(await label.evaluate((e) => getComputedStyle(e).color));

    // The admin sees the scheduled post, marked; the next page comes on もっと見る.
    expect(await page.getByTestId('blog-state').allInnerTexts()).toContain('公開予定');
    // The admin reads the posts of the categories they belong to: two pages in the seed (more when
    // other browser tests of the run wrote some). Each もっと見る adds cards; the last page ends the
    // list (no more もっと見る).
    const more = page.getByRole('button', { name: 'もっと見る' });
    for (let shown = 20; await more.isVisible();) {
      await more.click();
      await expect.poll(() => cards(page).count()).toBeGreaterThan(shown);
      shown = await cards(page).count();
    }
    expect(await cards(page).count()).toBeGreaterThan(20);
    const titles = await cardTitles(page);
    expect(new Set(titles).size).toBe(titles.length);

    // Layout: 4 per row by default, 2 remembered across a reload.
    expect(await page.getByTestId('blog-grid').getAttribute('data-columns')).toBe('4');
    await page.getByLabel('レイアウト', { exact: true }).selectOption('2');
    await page.reload();
    await cards(page).first().waitFor();
    expect(await page.getByTestId('blog-grid').getAttribute('data-columns')).toBe('2');
    await shot(page, 'desktop-blog-2-per-row');
    await page.getByLabel('レイアウト', { exact: true }).selectOption('4');

    // Single click: the read-only dialog; double click: the post's page.
    const first = cards(page).first();
    const title = await first.getByTestId('blog-card-title').innerText();
    await first.click();
    const dialog = page.getByTestId('blog-detail');
    await dialog.waitFor();
    expect(await page.getByRole('dialog').innerText()).toContain(title);
    expect(await dialog.innerText()).toContain('編集日');
    await shot(page, 'desktop-blog-detail');
    await page.getByRole('button', { name: '閉じる' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await first.dblclick();
    await page.waitForURL((u) => /^\/blog\/\d+$/.test(u.pathname));
    expect(await page.getByTestId('blog-detail').count()).toBe(0);
    await context.close();
  });

  test('desktop filters: category and title through 検索 into the URL, クリア, expired marked for its author, マイブログ', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/blog');
    await cards(page).first().waitFor();
    await page.getByLabel('カテゴリ', { exact: true }).selectOption({ label: '総務からのお知らせ' });
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('category')).not.toBeNull();
    await expect
      .poll(async () => new Set(await page.getByTestId('blog-grid').getByTestId('blog-category').allInnerTexts()))
      .toEqual(new Set(['総務からのお知らせ']));
    await page.getByRole('button', { name: 'クリア' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => cards(page).count()).toBe(20);

    await searchTitle(page, '夏季休暇の申請受付');
    await expect.poll(() => cardTitles(page)).toEqual(['夏季休暇の申請受付（受付終了）']);
    expect(await page.getByTestId('blog-state').innerText()).toBe('公開終了');
    await expect.poll(() => new URL(page.url()).searchParams.get('title')).toBe('夏季休暇の申請受付');

    await page.getByRole('button', { name: 'クリア' }).click();
    await page
      .getByRole('radio', { name: 'マイブログ' })
      .or(page.getByRole('button', { name: 'マイブログ' }))
      .click();
    await expect.poll(() => new URL(page.url()).searchParams.get('scope')).toBe('mine');
    await expect.poll(async () => (await page.locator('[data-testid="blog-card"]').count()) > 0).toBe(true);
    await context.close();
  });

  test('attachments: a picture shows its served thumbnail, a PDF is a link that serves the PDF', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/blog?title=' + encodeURIComponent('全社キックオフ'));
    const picture = cards(page).first().getByRole('img', { name: 'キックオフ会場.png' });
    await picture.waitFor();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await shot(page, 'desktop-blog-picture');

    await searchTitle(page, '防災訓練を実施します');
    const link = page.getByTestId('blog-grid').getByTestId('blog-file-link');
    await expect.poll(() => link.innerText()).toBe('PDF: 避難経路図.pdf');
    const href = await link.getAttribute('href');
    const served = await page.request.get(href!);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toContain('application/pdf');
    await context.close();
  });

  test('staff sees neither the restricted category nor scheduled posts; empty states say so in Japanese', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog');
    await cards(page).first().waitFor();
    expect(await page.getByTestId('blog-state').count()).toBe(0);
    await searchTitle(page, '取締役会');
    await page.getByTestId('blog-empty').waitFor();
    expect(await page.getByTestId('blog-empty').innerText()).toContain('条件に合うブログはありません');
    await shot(page, 'desktop-blog-empty');
    await context.close();
  });

  test("phone: /blog opens /blog/sp, one column, フィルター dialog; a tap on another's post opens the dialog, on one's own the post page", async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'admin', { landing: '/schedules/sp' });
    await page.goto('/blog');
    await page.waitForURL((u) => u.pathname === '/blog/sp');
    await cards(page).first().waitFor();
    expect(await page.getByTestId('blog-grid').getAttribute('data-columns')).toBe('1');
    expect(await page.getByRole('button', { name: '作成' }).isVisible()).toBe(true);
    await shot(page, 'phone-blog');

    await page.getByRole('button', { name: 'フィルター' }).click();
    await page.getByLabel('カテゴリ', { exact: true }).selectOption({ label: '社内報' });
    await shot(page, 'phone-blog-filter');
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await expect
      .poll(async () => new Set(await page.getByTestId('blog-grid').getByTestId('blog-category').allInnerTexts()))
      .toEqual(new Set(['社内報']));
    // A filtered feed has no 速報 above it (its own pinned posts come first among its cards).
    expect(await page.getByTestId('blog-pinned').count()).toBe(0);

    // 社内報's posts in the seed are by sysadmin and others: a tap opens the dialog.
    const other = cards(page).filter({ hasNotText: '山田 太郎' }).first();
    await other.click();
    await page.getByTestId('blog-detail').waitFor();
    await shot(page, 'phone-blog-detail');
    await page.getByRole('button', { name: '閉じる' }).last().click();
    await page.getByTestId('blog-detail').waitFor({ state: 'detached' });

    await page.goto('/blog/sp?scope=mine');
    await cards(page).first().waitFor();
    await cards(page).first().click();
    await page.waitForURL((u) => /^\/blog\/sp\/\d+$/.test(u.pathname));
    await context.close();
  });

  test('the post page: its author deletes it after confirming (キャンセル keeps it); another employee gets no 削除', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const categories = (await (await page.request.get('/api/blog_category')).json()) as {
      category_id: number;
      category_name: string;
    }[];
    const club = categories.find((c) => c.category_name === '部活動・サークル')!.category_id;
    const title = `削除の確認 ${Date.now().toString(36)}`;
    const made = await page.request.post('/api/blogs', {
      data: { title, content: '<p>消える投稿</p>', category_id: club },
    });
    expect(made.status()).toBe(201);
    const { blog_id: id } = (await made.json()) as { blog_id: number };

    // Another employee reads it without a 削除.
    const other = await newPage(browser);
    await signIn(other.page, 'devadmin');
    await other.page.goto(`/blog/${id}`);
    await other.page.getByTestId('blog-editor-page').getByText(title).first().waitFor();
    expect(await other.page.getByTestId('blog-delete').count()).toBe(0);
    await other.context.close();

    // At 390 px the three actions fit in one row.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'staff', { landing: '/schedules/sp' });
    await phone.page.goto(`/blog/sp/${id}`);
    await phone.page.getByTestId('blog-delete').waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone.page, 'phone-blog-delete');
    await phone.context.close();

    await page.goto(`/blog/${id}`);
    const del = page.getByTestId('blog-delete');
    await del.click();
    const question = page.getByRole('alertdialog', { name: '投稿を削除しますか？' });
    expect(await question.innerText()).toContain(`「${title}」を削除します`);
    await shot(page, 'desktop-blog-delete-question');
    await question.getByRole('button', { name: 'キャンセル' }).click();
    await question.waitFor({ state: 'detached' });
    expect((await page.request.get(`/api/blogs/${id}`)).status()).toBe(200);

    await del.click();
    await page.getByRole('alertdialog').getByRole('button', { name: '削除する' }).click();
    await page.waitForURL((u) => u.pathname === '/blog');
    await page.getByText('投稿を削除しました').waitFor();
    expect((await page.request.get(`/api/blogs/${id}`)).status()).toBe(404);
    await context.close();
  });
});
