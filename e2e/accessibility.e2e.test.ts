import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings, newPhonePage } from './support/axe';
import { launchBrowser, newPage, signInRetrying } from './support/browser';

/**
 * axe-core on every screen (issue 22): each route as a signed-in admin, the sign-in page (with its
 * error), not-found, forbidden, and the dialogs (schedule, attendee picker, import, confirmation),
 * at 1280 px and at 390 px with a phone's user agent. Zero serious or critical violations.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Viewport = 'desktop' | 'narrow';
const VIEWPORTS: Viewport[] = ['desktop', 'narrow'];

async function open(viewport: Viewport): Promise<{ context: BrowserContext; page: Page }> {
  return viewport === 'desktop' ? newPage(browser) : newPhonePage(browser);
}

/** The screen has rendered its title and its first data. */
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await quiet(page);
}

/** The first id of each list, read through the app's own API with the page's session. */
async function firstIds(
  page: Page,
): Promise<Record<'employee' | 'department' | 'computer' | 'smartphone' | 'officeAccount', number>> {
  return page.evaluate(async () => {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
      body: JSON.stringify({
        query: `{ employees(limit: 1) { items { id } } departments(limit: 1) { items { id } } computers(limit: 1) { items { id } }
                 smartphones(limit: 1) { items { id } } officeAccounts(limit: 1) { items { id } } }`,
      }),
    });
    const d = (await res.json()).data;
    return {
      employee: d.employees.items[0].id,
      department: d.departments.items[0].id,
      computer: d.computers.items[0].id,
      smartphone: d.smartphones.items[0].id,
      officeAccount: d.officeAccounts.items[0].id,
    };
  });
}

type Ids = Awaited<ReturnType<typeof firstIds>>;

/** Every route of the app (web/src/app/areas.ts), the mobile variants at 390 px; `:kind` is the first id of that kind. */
function routes(viewport: Viewport): string[] {
  const sp = viewport === 'narrow' ? '/sp' : '';
  return [
    '/home',
    '/employees',
    '/employees/new',
    '/employees/:employee',
    '/departments',
    '/departments/detail/new',
    '/departments/:department',
    '/api_keys',
    `/computers${sp}`,
    `/computers${sp}/new`,
    `/computers${sp}/:computer`,
    `/smartphones${sp}`,
    `/smartphones${sp}/new`,
    `/smartphones${sp}/:smartphone`,
    '/microsoft_office',
    '/microsoft_office/new',
    '/microsoft_office/:officeAccount',
    viewport === 'narrow' ? '/schedules/sp' : '/schedules',
    `/blog${sp}`,
    '/blog/statistics',
    '/blog_category',
    '/blog_category/new',
    '/blog_category/1', // the seed's first category (社内報)
    `/profile${sp}`,
    `/profile_list${sp}`,
    '/no-such-page',
  ];
}

const withIds = (route: string, ids: Ids) => route.replace(/:(\w+)/, (_, k: keyof Ids) => String(ids[k]));

/**
 * No part of the page is loading ([data-busy] fades a list while its next answer is on the way) and
 * no transition is running: axe judges the colours a user reads, not a 120 ms fade.
 */
async function quiet(page: Page) {
  await page.waitForFunction(
    () =>
      !document.querySelector('[data-busy]') &&
      document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
}

/**
 * axe finds nothing. A live update may start a refetch while axe reads the page (other tests on
 * this worker's platform change data): a check that saw the page busy is repeated once it is quiet.
 */
async function expectClean(page: Page, where: string, include?: string) {
  for (let attempt = 1; ; attempt++) {
    await quiet(page);
    await page.evaluate(() => {
      const w = window as unknown as { __busySeen?: boolean; __busyWatch?: MutationObserver };
      w.__busySeen = false;
      w.__busyWatch?.disconnect();
      w.__busyWatch = new MutationObserver(() => {
        if (document.querySelector('[data-busy]')) w.__busySeen = true;
      });
      w.__busyWatch.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-busy'],
      });
    });
    const found = await axeViolations(page, { include });
    const busy = await page.evaluate(() => (window as unknown as { __busySeen?: boolean }).__busySeen === true);
    if (found.length > 0 && busy && attempt < 3) continue;
    expect(found, describeFindings(where, found)).toEqual([]);
    return;
  }
}

describe('axe-core: no serious or critical violations', () => {
  for (const viewport of VIEWPORTS) {
    test(`${viewport}: sign-in page, with and without an error`, async () => {
      const { context, page } = await open(viewport);
      await page.goto('/login');
      await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
      await expectClean(page, `${viewport} /login`);
      await page.getByLabel('ID', { exact: true }).fill('admin');
      await page.getByLabel('パスワード', { exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'ログイン', exact: true }).click();
      await page.getByTestId('login-error').waitFor();
      await expectClean(page, `${viewport} /login (error)`);
      await context.close();
    });

    describe(`${viewport}: every route as admin, and not-found`, () => {
      let session: { context: BrowserContext; page: Page };
      let ids: Ids;
      beforeAll(async () => {
        session = await open(viewport);
        await signInRetrying(session.page, 'admin', {
          landing: viewport === 'narrow' ? '/schedules/sp' : '/schedules',
        });
        ids = await firstIds(session.page);
      });
      afterAll(async () => session?.context.close());

      test.each(routes(viewport))('%s', async (route) => {
        const { page } = session;
        await page.goto(withIds(route, ids));
        await settled(page);
        await expectClean(page, `${viewport} ${route}`);
      });
    });

    test(`${viewport}: forbidden`, async () => {
      const { context, page } = await open(viewport);
      await signInRetrying(page, 'staff', { landing: viewport === 'narrow' ? '/schedules/sp' : '/schedules' });
      await page.goto('/computers');
      await page.getByTestId('forbidden-page').waitFor();
      await expectClean(page, `${viewport} forbidden`);
      await context.close();
    });

    test(`${viewport}: schedule dialog and attendee picker`, async () => {
      const { context, page } = await open(viewport);
      const landing = viewport === 'narrow' ? '/schedules/sp' : '/schedules';
      await signInRetrying(page, 'admin', { landing });
      await settled(page);
      if (viewport === 'narrow')
        await page
          .getByTestId('member')
          .first()
          .getByRole('button', { name: /予定を追加/ })
          .click();
      else await page.getByTestId('grid-add').first().click();
      const dialog = page.getByRole('dialog', { name: '予定作成' });
      await dialog.getByTestId('field-title').waitFor();
      await expectClean(page, `${viewport} schedule dialog`);

      await dialog.getByTestId('pick-attendees').click();
      const picker = page.getByRole('dialog', { name: '参加者の選択' });
      await picker.getByTestId('picker-row').first().waitFor();
      await expectClean(page, `${viewport} attendee picker`);
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'detached' });

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await context.close();
    });
  }

  test.each(VIEWPORTS)('%s: confirmation before edits are thrown away', async (viewport) => {
    const { context, page } = await open(viewport);
    await signInRetrying(page, 'admin', { landing: viewport === 'narrow' ? '/schedules/sp' : '/schedules' });
    const ids = await firstIds(page);
    await page.goto(`/employees/${ids.employee}`);
    await settled(page);
    await page.getByRole('button', { name: '編集' }).click();
    await page.getByLabel('メールアドレス').fill('a11y-check@example.co.jp');
    await page.getByRole('button', { name: 'キャンセル' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('編集内容は破棄されます。よろしいですか？').waitFor();
    await expectClean(page, `${viewport} confirmation`);
    await confirm.getByRole('button', { name: 'はい' }).click();
    await context.close();
  });

  test('desktop: import dialog', async () => {
    const { context, page } = await open('desktop');
    await signInRetrying(page, 'admin');
    await page.goto('/computers');
    await settled(page);
    await page.getByRole('button', { name: 'Excel取り込み' }).click();
    await page.getByRole('dialog', { name: 'パソコンをExcelから取り込む' }).waitFor();
    await expectClean(page, 'desktop import dialog');
    await context.close();
  });
});
