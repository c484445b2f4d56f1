import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { DESKTOP, PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Each 速報 entry: whether its title is cut (wider than its box), and where its title and date are. */
const entries = (page: Page) =>
  page.getByTestId('blog-pinned-item').evaluateAll((items) =>
    items.map((item) => {
      const [title, , date] = Array.from(item.children) as HTMLElement[];
      return {
        title: title!.innerText,
        cut: title!.scrollWidth > title!.clientWidth,
        titleTop: title!.getBoundingClientRect().top,
        titleBottom: title!.getBoundingClientRect().bottom,
        dateTop: date!.getBoundingClientRect().top,
      };
    }),
  );

/**
 * 速報 on a phone showed "【重要】年末年…": the title shared one row with the category label and
 * the date and was cut to a third of the width. A narrow panel now gives the title its own lines;
 * the desktop keeps one row per entry.
 */
describe('速報 on a phone and on the desktop', () => {
  test('at 390 px every pinned title is shown whole, above its label and date; at 1280 px each entry is one row', async () => {
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, 'staff', { landing: '/schedules/sp' });
    await phone.page.goto('/blog/sp');
    await phone.page.getByTestId('blog-pinned-item').first().waitFor();
    const narrow = await entries(phone.page);
    expect(narrow.length).toBeGreaterThan(0);
    for (const e of narrow)
      expect({ title: e.title, cut: e.cut, below: e.dateTop >= e.titleBottom }).toEqual({
        title: e.title,
        cut: false,
        below: true,
      });
    await phone.page.getByTestId('blog-pinned').screenshot({ path: 'e2e/artifacts/phone-blog-pinned.png' });
    // Every control of the panel can be tapped (WCAG 2.2 target size: Lighthouse's accessibility score counts it).
    const small = await axeViolations(phone.page, { include: '[data-testid="blog-pinned"]', rules: ['target-size'] });
    expect(small, describeFindings('速報 at 390 px', small)).toEqual([]);

    const desk = await newPage(browser, DESKTOP);
    await signIn(desk.page, 'staff');
    await desk.page.goto('/blog');
    await desk.page.getByTestId('blog-pinned-item').first().waitFor();
    for (const e of await entries(desk.page))
      expect({ title: e.title, sameRow: Math.abs(e.dateTop - e.titleTop) < 8 }).toEqual({
        title: e.title,
        sameRow: true,
      });
    await Promise.all([phone, desk].map((x) => x.context.close()));
  }, 180_000);
});
