import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const cards = (page: Page) => page.getByTestId('blog-grid').getByTestId('blog-card');
const cardTitled = (page: Page, title: string) =>
  cards(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const titleOf = async (card: Locator) => await card.getByTestId('blog-card-title').innerText();

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

/** The signed-in employee's name, read through the app's own API with the page's session. */
async function myName(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
      body: JSON.stringify({ query: '{ me { name } }' }),
    });
    return ((await res.json()) as { data: { me: { name: string } } }).data.me.name;
  });
}

/** Primer's tooltip is aria-hidden: the button names it through aria-describedby. */
async function tooltipOf(page: Page, button: Locator): Promise<Locator> {
  return page.locator(`[id="${await button.getAttribute('aria-describedby')}"]`);
}

async function scope(page: Page, name: string) {
  await page
    .getByRole('radio', { name })
    .or(page.getByRole('button', { name, exact: true }))
    .click();
}

describe('blog likes, saves and New! (web)', () => {
  test('staff likes a post (count +1, pressed, their name in the tooltip) and takes the like back', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog');
    await cards(page).first().waitFor();
    const name = await myName(page);
    // A post that takes likes and that nobody has liked yet (so the tooltip's empty state is checked for certain at the end).
    const card = cards(page)
      .filter({ has: page.locator('[data-testid="blog-like"][aria-pressed="false"]') })
      .filter({ has: page.getByTestId('blog-like-count').getByText('0', { exact: true }) })
      .first();
    const title = await titleOf(card);
    const mine = cardTitled(page, title);
    const heart = mine.getByTestId('blog-like');
    const before = Number(await mine.getByTestId('blog-like-count').innerText());

    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => mine.getByTestId('blog-like-count').innerText()).toBe(String(before + 1));
    // A click on the heart is not a click on the card: no dialog.
    expect(await page.getByTestId('blog-detail').count()).toBe(0);
    // The tooltip lists the likers.
    await heart.hover();
    const tip = await tooltipOf(page, heart);
    await tip.waitFor();
    await expect.poll(() => tip.innerText()).toContain(name);
    await shot(page, 'desktop-blog-liked');

    // The server kept it: after a reload the heart is still pressed.
    await page.reload();
    await mine.waitFor();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => mine.getByTestId('blog-like-count').innerText()).toBe(String(before));
    await expect.poll(async () => (await tooltipOf(page, heart)).textContent()).not.toContain(name);
    // With nobody left, the tooltip says so.
    expect(before).toBe(0);
    expect(await (await tooltipOf(page, heart)).textContent()).toBe('まだいいねはありません');
    await context.close();
  });

  test('staff stars a post, sees only it under 保存したブログ (in the URL), unstars it and it leaves the list', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog');
    await cards(page).first().waitFor();
    const card = cards(page)
      .filter({ has: page.locator('[data-testid="blog-save"][aria-pressed="false"]') })
      .nth(1);
    const title = await titleOf(card);
    const star = cardTitled(page, title).getByTestId('blog-save');
    expect(await star.getAttribute('aria-label')).toBe('保存');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    expect(await star.getAttribute('aria-label')).toBe('保存を解除');

    await scope(page, '保存したブログ');
    await expect.poll(() => new URL(page.url()).searchParams.get('scope')).toBe('saved');
    await expect
      .poll(async () => page.getByTestId('blog-grid').getByTestId('blog-card-title').allInnerTexts())
      .toEqual([title]);
    await shot(page, 'desktop-blog-saved');

    await cardTitled(page, title).getByTestId('blog-save').click();
    await page.getByTestId('blog-empty').waitFor();
    expect(await page.getByTestId('blog-empty').innerText()).toContain('保存したブログはありません');
    expect(await cards(page).count()).toBe(0);
    // And the server agrees: a reload of the Saved view is empty too.
    await page.reload();
    await page.getByTestId('blog-empty').waitFor();
    await context.close();
  });

  test('a New! post loses New! when a single click opens it, and stays seen after a reload', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/blog');
    await cards(page).first().waitFor();
    const card = cards(page)
      .filter({ has: page.getByTestId('blog-new') })
      .nth(2);
    const title = await titleOf(card);
    const mine = cardTitled(page, title);
    expect(await mine.getByTestId('blog-new').innerText()).toBe('New!');
    expect(await mine.getByTestId('blog-new').evaluate((e) => getComputedStyle(e).color)).toMatch(
      /^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/,
    );
    await shot(page, 'desktop-blog-new');

    await mine.getByTestId('blog-card-title').click();
    await page.getByTestId('blog-detail').waitFor();
    await expect.poll(() => mine.getByTestId('blog-new').count()).toBe(0);
    // The dialog has the heart and the star too.
    expect(await page.getByTestId('blog-detail').getByTestId('blog-save').count()).toBe(1);
    await page.getByRole('button', { name: '閉じる' }).last().click();
    await page.getByTestId('blog-detail').waitFor({ state: 'detached' });

    await page.reload();
    await mine.waitFor();
    expect(await mine.getByTestId('blog-new').count()).toBe(0);
    await context.close();
  });

  test("phone (390 px): heart, star and New! on a card; a tap on another's post opens it and marks it seen", async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'staff', { landing: '/schedules/sp' });
    await page.goto('/blog/sp');
    await cards(page).first().waitFor();
    await shot(page, 'phone-blog-engagement');
    const me = await myName(page);
    const card = cards(page)
      .filter({ has: page.getByTestId('blog-new') })
      .filter({ hasNotText: me })
      .nth(3);
    const title = await titleOf(card);
    const mine = cardTitled(page, title);
    expect(await mine.getByTestId('blog-save').isVisible()).toBe(true);
    await mine.getByTestId('blog-card-title').click();
    await page.getByTestId('blog-detail').waitFor();
    await shot(page, 'phone-blog-engagement-detail');
    await page.getByRole('button', { name: '閉じる' }).last().click();
    await page.getByTestId('blog-detail').waitFor({ state: 'detached' });
    await expect.poll(() => mine.getByTestId('blog-new').count()).toBe(0);
    await context.close();
  });
});
