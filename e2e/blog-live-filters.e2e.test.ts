import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import { feedTitles } from './support/blog-live';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const feedReady = (page: Page) =>
  page.locator('[data-testid="blog-card"], [data-testid="blog-empty"]').first().waitFor();

/**
 * A filtered feed follows live posts by the feed's own rule (the server's): under the department
 * filter 開発, a post by devadmin (開発) appears without reload and one by staff (営業) does not, on
 * the desktop feed and the phone's. Both write in 部活動・サークル, which everyone reads and writes.
 */
describe('blog live under the feed filters', () => {
  test('under a department filter, a new post by someone of that department appears live and one by someone of another department does not', async () => {
    const dev = await newPage(browser);
    const sales = await newPage(browser);
    const desk = await newPage(browser);
    const phone = await newPage(browser, PHONE);
    await signIn(dev.page, 'devadmin');
    await signIn(sales.page, 'staff');
    await signIn(desk.page, 'sysadmin');
    await signIn(phone.page, 'sysadmin', { landing: '/schedules/sp' });

    // The desktop viewer filters by 部署 = 開発 as a user does; the phone opens the same filter.
    await desk.page.goto('/blog');
    await feedReady(desk.page);
    await desk.page.getByRole('combobox', { name: '部署', exact: true }).selectOption({ label: '開発' });
    await desk.page.getByRole('button', { name: '検索', exact: true }).click();
    await desk.page.waitForURL(/department=\d+/);
    const department = new URL(desk.page.url()).searchParams.get('department');
    await feedReady(desk.page);
    await phone.page.goto(`/blog/sp?department=${department}`);
    await feedReady(phone.page);
    for (const p of [desk.page, phone.page])
      await p.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    const categories = (await (await dev.page.request.get('/api/blog_category')).json()) as {
      category_id: number;
      category_name: string;
    }[];
    const club = categories.find((c) => c.category_name === '部活動・サークル')!.category_id;
    const write = async (who: Page, title: string) => {
      const r = await who.request.post('/api/blogs', {
        data: { title, content: '<p>部署の絞り込みとライブ</p>', category_id: club },
      });
      expect(r.status()).toBe(201);
      return ((await r.json()) as { blog_id: number }).blog_id;
    };
    const remove = (who: Page, id: number) =>
      who.request.delete(`/api/blogs/${id}`, { headers: { 'X-Requested-With': 'fetch' } });

    // 営業 first, then 開発: once 開発's post is shown, 営業's has been delivered before it (in order) and left out.
    const stamp = Date.now();
    const other = `営業部の部活報告 ${stamp}`;
    const own = `開発部の部活報告 ${stamp}`;
    const otherId = await write(sales.page, other);
    const ownId = await write(dev.page, own);
    for (const p of [desk.page, phone.page]) {
      await expect.poll(() => feedTitles(p)).toContain(own);
      expect(await feedTitles(p)).not.toContain(other);
    }
    await desk.page.screenshot({ path: 'e2e/artifacts/desktop-blog-live-department.png' });
    await phone.page.screenshot({ path: 'e2e/artifacts/phone-blog-live-department.png' });
    for (const p of [desk.page, phone.page])
      expect(await p.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // A reload lists the same: the live feed and the server's feed agree.
    await desk.page.reload();
    await feedReady(desk.page);
    expect(await feedTitles(desk.page)).toContain(own);
    expect(await feedTitles(desk.page)).not.toContain(other);

    await Promise.all([remove(sales.page, otherId), remove(dev.page, ownId)]);
    await Promise.all([dev, sales, desk, phone].map((x) => x.context.close()));
  }, 180_000);
});
