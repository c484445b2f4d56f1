import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import { makePng } from './support/png';

/** Issue 39, defects 1 and 2: pictures in a post's body fit every box that shows it, and never cover the phone's save bar. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const WIDE = makePng(1600, 500);

/** A post by the signed-in person with wide pictures between headings, made through /api as a tool would. */
async function postWithPictures(page: Page, title: string): Promise<number> {
  const up = await page.request.post('/api/blog_images', {
    data: { name: 'wide.png', data_url: `data:image/png;base64,${WIDE.toString('base64')}` },
  });
  expect(up.status()).toBe(201);
  const { url } = ((await up.json()) as { file: { url: string } }).file;
  const categories = (await (await page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  const club = categories.find((c) => c.category_name === '部活動・サークル')!.category_id;
  const section = (n: number) =>
    `<h2>見出し ${n}</h2><p>写真の説明 ${n}。とても長い説明文がここに続きます。</p><img src="${url}" alt="写真 ${n}">`;
  const made = await page.request.post('/api/blogs', {
    data: { title, content: [1, 2, 3].map(section).join(''), category_id: club },
  });
  expect(made.status()).toBe(201);
  return ((await made.json()) as { blog_id: number }).blog_id;
}

/** Each picture inside `box` is no wider than the box, and the box does not scroll sideways. */
async function fitsIn(page: Page, box: string) {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector)!;
    const right = el.getBoundingClientRect().right;
    const pictures = [...el.querySelectorAll('img')].filter((img) => img.naturalWidth > 600);
    return {
      pictures: pictures.length,
      overflowing: pictures.filter((img) => img.getBoundingClientRect().right > right + 1).length,
      scrollsSideways: el.scrollWidth > el.clientWidth + 1 || document.documentElement.scrollWidth > window.innerWidth,
    };
  }, box);
}

describe('pictures in a post fit their box', () => {
  test('390 px: editing a post with pictures, 保存 stays on top and takes the tap at every scroll position', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    const id = await postWithPictures(page, `写真の多い投稿 ${Date.now().toString(36)}`);
    await page.goto(`/blog/sp/${id}`);
    await page.getByRole('button', { name: '編集' }).click();
    await page.getByTestId('blog-editor').locator('img.image-tool__image-picture').first().waitFor();
    const save = page.getByRole('button', { name: '保存', exact: true });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    let checked = 0;
    for (let y = 0; y < height; y += 150) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      const hit = await save.evaluate((button) => {
        const r = button.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { onScreen: r.bottom <= window.innerHeight && r.top >= 0, mine: !!at && button.contains(at) };
      });
      if (!hit.onScreen) continue;
      expect(hit.mine, `a tap on 保存 at scroll ${y} lands on something else`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.waitForTimeout(200);
    await page.screenshot({ path: 'e2e/artifacts/phone-blog-editor-pictures.png' });
    expect((await fitsIn(page, '[data-testid="blog-editor"]')).overflowing).toBe(0);
    await context.close();
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['390 px', PHONE],
  ] as const)
    test(`${name}: the quick-view dialog scales a wide picture to its width and does not scroll sideways`, async () => {
      const { context, page } = await newPage(browser, viewport);
      await signIn(page, 'staff', { landing: viewport === PHONE ? '/schedules/sp' : '/schedules' });
      const title = `横長の写真 ${Date.now().toString(36)}`;
      await postWithPictures(page, title);
      // Another person opens it: on a phone, the author's own card opens the editor page instead.
      const reader = await newPage(browser, viewport);
      await signIn(reader.page, 'admin', { landing: viewport === PHONE ? '/schedules/sp' : '/schedules' });
      await reader.page.goto(viewport === PHONE ? '/blog/sp' : '/blog');
      const card = reader.page.getByTestId('blog-grid').getByTestId('blog-card').filter({ hasText: title });
      await card.waitFor();
      expect((await fitsIn(reader.page, '[data-testid="blog-grid"]')).overflowing).toBe(0);
      await card.click();
      const dialog = reader.page.getByTestId('blog-detail');
      await dialog.locator('img').first().waitFor();
      await reader.page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid="blog-detail"] img')].every(
          (img) => (img as HTMLImageElement).complete,
        ),
      );
      const fit = await fitsIn(reader.page, '[data-testid="blog-detail"]');
      expect(fit.pictures).toBe(3);
      expect(fit).toEqual({ pictures: 3, overflowing: 0, scrollsSideways: false });
      await reader.page.screenshot({
        path: `e2e/artifacts/${viewport === PHONE ? 'phone' : 'desktop'}-blog-detail-wide-picture.png`,
      });
      await reader.context.close();
      await context.close();
    });
});
