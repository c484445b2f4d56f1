import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHONE, launchBrowser, newPage, recordValue, setChecked, signInRetrying as signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('tbody tr');
const range = (page: Page) => page.getByTestId('pager-range').innerText();

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

describe('IT-asset register (computers, smartphones, Office accounts)', () => {
  test('computer list: maker filter, show discarded, ?ms365= chip that can be cleared', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/computers');
    await rows(page, 'computers-table').first().waitFor();
    await shot(page, 'desktop-computers');
    const base = await range(page);
    expect(await page.locator('tr[data-tone="discarded"]').count()).toBe(0);
    await setChecked(page, '廃棄を表示', true);
    await expect.poll(() => range(page)).not.toBe(base);
    await expect.poll(() => page.locator('tr[data-tone="discarded"]').count()).toBeGreaterThan(0);
    // クリア clears every filter, the checkbox included (as on the staff list).
    await page.getByRole('button', { name: 'クリア' }).click();
    await expect.poll(() => page.getByLabel('廃棄を表示').isChecked()).toBe(false);
    await expect.poll(() => range(page)).toBe(base);
    await page.getByLabel('メーカー').fill('Dell');
    await expect
      .poll(async () => (await rows(page, 'computers-table').allInnerTexts()).every((r) => r.includes('Dell')))
      .toBe(true);

    await page.goto('/computers?ms365=1');
    const chip = page.getByTestId('filter-chip');
    await chip.waitFor();
    await expect.poll(() => chip.innerText()).toContain('m365-01@example.co.jp');
    await expect.poll(() => rows(page, 'computers-table').count()).toBe(5);
    await page.getByRole('button', { name: 'Office アカウントの絞り込みを解除' }).click();
    await chip.waitFor({ state: 'detached' });
    await expect.poll(() => rows(page, 'computers-table').count()).toBeGreaterThan(5);
    await context.close();
  });

  test('a filter picked while a text filter is still waiting to write is kept (both end up in the URL and the list)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/computers');
    await rows(page, 'computers-table').first().waitFor();
    await page.getByLabel('メーカー').fill('HP');
    // Within the text filter's 300 ms pause: pick a department and tick 廃棄を表示.
    await page.getByLabel('部署').selectOption({ label: '開発' });
    await setChecked(page, '廃棄を表示', true);
    await page.waitForTimeout(1000);
    const params = new URL(page.url()).searchParams;
    expect(params.get('maker')).toBe('HP');
    expect(params.get('department')).not.toBeNull();
    expect(params.get('discarded')).toBe('1');
    expect(await page.getByLabel('部署').inputValue()).not.toBe('');
    expect(await page.getByLabel('廃棄を表示').isChecked()).toBe(true);
    await context.close();
  });

  test('an empty result says so once, offers to clear its filters, with nothing to export; the current page is blue as in Primer', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/computers');
    await rows(page, 'computers-table').first().waitFor();
    const exportButton = page.getByRole('button', { name: 'Excel出力' });
    expect(await exportButton.isEnabled()).toBe(true);
    await page.getByLabel('メーカー').fill('存在しないメーカーXYZ');
    // The empty answer, not the moment between answers when the old rows are gone.
    await page.getByTestId('list-empty').waitFor();
    expect(await rows(page, 'computers-table').count()).toBe(0);
    expect(await page.getByTestId('pager-range').count()).toBe(0); // not 「全0件中 0〜0件」
    expect(await exportButton.isDisabled()).toBe(true);
    // The empty state offers to clear the filters that emptied it, and doing so brings the rows back.
    await page.screenshot({ path: 'e2e/artifacts/computers-empty.png' });
    await page.getByTestId('list-empty').getByRole('button', { name: '絞り込みを解除' }).click();
    await rows(page, 'computers-table').first().waitFor();
    expect(new URL(page.url()).searchParams.get('maker')).toBeNull();
    expect(await page.getByLabel('メーカー').inputValue()).toBe('');
    await page.goto('/employees?retired=1');
    const current = page.locator('button[aria-current="page"]');
    await current.waitFor();
    const bg = await current.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(9, 105, 218)'); // --bgColor-accent-emphasis
    await context.close();
  });

  test('create a computer with the user and Office account pickers', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/computers');
    await page.getByRole('button', { name: '追加' }).click();
    await page.waitForURL((u) => u.pathname === '/computers/new');
    // The list stays on screen while the detail chunk loads (its filter is also labelled メーカー):
    // wait for the detail heading before typing.
    await page.getByRole('heading', { level: 1, name: 'パソコン登録' }).waitFor();
    // An empty form fails first: one message per field at fault, no banner or toast besides.
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByLabel('メーカー', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('パソコンの保存に失敗しました').count()).toBe(0);
    expect(await page.getByText('保存できませんでした').count()).toBe(0);
    await page.getByLabel('メーカー').fill('E2E Maker');
    await page.getByLabel('型番').fill('Model-X');
    await page.getByRole('button', { name: '使用者: 選択', exact: true }).click();
    const picker = page.getByRole('dialog');
    await picker.getByTestId('employee-picker-table').locator('tbody tr').first().click();
    await expect.poll(() => page.getByLabel('使用者', { exact: true }).inputValue()).toMatch(/ID \d+/);
    await page.getByRole('button', { name: 'Microsoft Office アカウント: 選択' }).click();
    // Only accounts in use are offered (a suspended one cannot be linked).
    await page.getByText('停止中のアカウントは紐付けられないため表示していません').waitFor();
    await page.getByTestId('office-picker-table').locator('tbody tr').nth(4).click();
    await expect
      .poll(() => page.getByLabel('Microsoft Office アカウント', { exact: true }).inputValue())
      .toContain('@example.co.jp');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await shot(page, 'desktop-computer-new');
    await page.getByRole('button', { name: '保存' }).click();
    await page
      .waitForURL((u) => u.pathname === '/computers')
      .catch(async (e) => {
        await page.screenshot({ path: 'e2e/artifacts/debug-computer-new.png', fullPage: true });
        throw e;
      });
    await page.getByText('パソコンを登録しました').waitFor();
    expect(await page.getByText('パソコンの保存に失敗しました').count()).toBe(0);
    await page.getByLabel('メーカー').fill('E2E Maker');
    await expect.poll(() => rows(page, 'computers-table').count()).toBe(1);
    await context.close();
  });

  test('two users saving the same computer: the second keeps the edits, sees who saved, and picks per field (issue 22, item 4)', async () => {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await signIn(a.page, 'devadmin');
    await signIn(b.page, 'admin');
    for (const { page } of [a, b]) {
      await page.goto('/computers/2');
      await expect.poll(() => recordValue(page, '型番').innerText()).not.toBe('');
      await page.getByRole('button', { name: '編集' }).click();
    }
    const stamp = Date.now().toString(36);
    await shot(a.page, 'desktop-computer-detail');
    // A: the model and the reason. B: the model (a clash) and the maker (B's alone).
    await a.page.getByLabel('型番').fill(`A-${stamp}`);
    await a.page.getByLabel('理由').fill(`Aの理由 ${stamp}`);
    await a.page.getByRole('button', { name: '保存' }).click();
    await a.page.waitForURL((u) => u.pathname === '/computers');
    await b.page.getByLabel('型番').fill(`B-${stamp}`);
    await b.page.getByLabel('メーカー', { exact: true }).fill(`Bのメーカー ${stamp}`);
    await b.page.getByRole('button', { name: '保存' }).click();
    const merge = b.page.getByTestId('conflict-merge');
    await merge.waitFor();
    expect(await merge.innerText()).toContain('高橋 健太さん');
    expect(await merge.innerText()).toContain('理由');
    // The merge panel is the one message: no failure toast beside it.
    expect(await b.page.getByText('パソコンの保存に失敗しました').count()).toBe(0);
    // Still editing, with B's maker, A's reason, and the model to choose.
    expect(await b.page.getByLabel('メーカー', { exact: true }).inputValue()).toBe(`Bのメーカー ${stamp}`);
    expect(await b.page.getByLabel('理由').inputValue()).toBe(`Aの理由 ${stamp}`);
    const clash = merge.getByTestId('merge-clash');
    expect(await clash.count()).toBe(1);
    expect(await clash.getAttribute('data-field')).toBe('model');
    expect(await clash.innerText()).toContain(`A-${stamp}`);
    expect(await clash.innerText()).toContain(`B-${stamp}`);
    await shot(b.page, 'desktop-computer-conflict-merge');
    await b.page.setViewportSize(PHONE);
    await merge.scrollIntoViewIfNeeded();
    await shot(b.page, 'narrow-computer-conflict-merge');
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await b.page.setViewportSize({ width: 1280, height: 800 });
    await clash.getByText('保存されている値').click();
    expect(await b.page.getByLabel('型番').inputValue()).toBe(`A-${stamp}`);
    await clash.getByText('あなたの値').click();
    expect(await b.page.getByLabel('型番').inputValue()).toBe(`B-${stamp}`);
    await b.page.getByRole('button', { name: '保存' }).click();
    await b.page.waitForURL((u) => u.pathname === '/computers');
    await b.page.goto('/computers/2');
    await expect.poll(() => recordValue(b.page, '型番').innerText()).toBe(`B-${stamp}`);
    expect(await recordValue(b.page, 'メーカー').innerText()).toBe(`Bのメーカー ${stamp}`);
    expect(await recordValue(b.page, '理由・備考').innerText()).toBe(`Aの理由 ${stamp}`);
    await b.page.getByTestId('device-history').waitFor();
    await a.context.close();
    await b.context.close();
  });

  test('smartphones at 390 px: add button, filter dialog, show discarded, row click opens /smartphones/sp/:id', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'devadmin', { landing: '/schedules/sp' });
    await page.goto('/smartphones/sp');
    await rows(page, 'smartphones-table').first().waitFor();
    await page.getByRole('button', { name: '追加' }).waitFor();
    await page.getByLabel('廃棄を表示').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'narrow-smartphones');
    await page.getByRole('button', { name: /絞り込み/ }).click();
    const dialog = page.getByRole('dialog', { name: '絞り込み条件' });
    await dialog.getByLabel('キャリア').fill('au');
    await expect
      .poll(async () => (await rows(page, 'smartphones-table').allInnerTexts()).every((r) => r.includes('au')))
      .toBe(true);
    await dialog.getByRole('button', { name: '閉じる' }).first().click();
    await rows(page, 'smartphones-table').first().click();
    await page.waitForURL((u) => /^\/smartphones\/sp\/\d+$/.test(u.pathname));
    await page.getByRole('heading', { level: 1, name: 'スマートフォン詳細' }).waitFor();
    await shot(page, 'narrow-smartphone-detail');
    await page.goto('/computers/sp');
    await rows(page, 'computers-table').first().waitFor();
    await shot(page, 'narrow-computers');
    await rows(page, 'computers-table').first().click();
    await page.waitForURL((u) => /^\/computers\/sp\/\d+$/.test(u.pathname));
    await page.getByTestId('device-history').waitFor();
    await shot(page, 'narrow-computer-detail');
    await page.goto('/microsoft_office');
    await rows(page, 'office-accounts-table').first().waitFor();
    await shot(page, 'narrow-office-accounts');
    await context.close();
  });

  test('Office accounts: blue/red rows from the server and the usage link to /computers?ms365=', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/microsoft_office');
    await rows(page, 'office-accounts-table').first().waitFor();
    await shot(page, 'desktop-office-accounts');
    expect(await page.locator('tr[data-row-id="1"]').getAttribute('data-tone')).toBe('blue');
    expect(await page.locator('tr[data-row-id="2"]').getAttribute('data-tone')).toBe('red');
    // A coloured row says why, on the row itself (no hover needed on a phone).
    await expect
      .poll(() => page.locator('tr[data-row-id="1"]').innerText())
      .toContain('使用台数が上限（5台）に達しています。');
    await expect
      .poll(() => page.locator('tr[data-row-id="2"]').innerText())
      .toContain('使用台数が上限（5台）を超えています。');
    await page.getByTestId('usage-link-2').click();
    await page.waitForURL((u) => u.pathname === '/computers' && u.searchParams.get('ms365') === '2');
    await page.getByTestId('filter-chip').waitFor();
    await expect.poll(() => rows(page, 'computers-table').count()).toBe(7);
    await page.goto('/microsoft_office/1');
    await page.getByRole('heading', { level: 1, name: 'Microsoft Office アカウント詳細' }).waitFor();
    await expect
      .poll(() => page.getByTestId('office-row-reason').innerText())
      .toContain('使用台数が上限（5台）に達しています。');
    await shot(page, 'desktop-office-account-detail');
    await context.close();
  });

  test('export downloads the filtered list as .xlsx', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    await page.goto('/smartphones');
    await rows(page, 'smartphones-table').first().waitFor();
    await shot(page, 'desktop-smartphones');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Excel出力' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    await page.getByText('Excelファイルを出力しました').waitFor();
    await context.close();
  });

  test('live: a list in one browser shows another user’s save without reload', async () => {
    const watcher = await newPage(browser);
    const editor = await newPage(browser);
    await signIn(watcher.page, 'devadmin');
    await signIn(editor.page, 'admin');
    await watcher.page.goto('/smartphones');
    await watcher.page.locator('tr[data-row-id="1"]').waitFor();
    await watcher.page.waitForTimeout(1000); // the subscription is open
    await editor.page.goto('/smartphones/1');
    await expect.poll(() => recordValue(editor.page, '電話番号').innerText()).not.toBe('');
    await editor.page.getByRole('button', { name: '編集' }).click();
    await editor.page.getByLabel('キャリア').fill('ライブ通信');
    await editor.page.getByRole('button', { name: '保存' }).click();
    await editor.page.waitForURL((u) => u.pathname === '/smartphones');
    await expect
      .poll(() => watcher.page.locator('tr[data-row-id="1"]').innerText(), { timeout: 15_000 })
      .toContain('ライブ通信');
    await watcher.context.close();
    await editor.context.close();
  });

  test('offboarding: a retired holder’s devices are listed on the employee detail and returned in one confirmed action', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/computers/6');
    const user = await (async () => {
      await expect.poll(() => recordValue(page, '使用者').innerText()).toMatch(/ID \d+/);
      return Number(/ID (\d+)/.exec(await recordValue(page, '使用者').innerText())![1]);
    })();
    await page.goto(`/employees/${user}`);
    const panel = page.getByTestId('offboarding-panel');
    await panel.waitFor();
    await panel.locator('tbody tr').first().waitFor();
    await shot(page, 'desktop-employee-offboarding');
    await page.getByRole('button', { name: 'すべて返却する' }).click();
    // The return is its own confirmed action, saved at once: the confirmation says so.
    await page
      .getByRole('alertdialog')
      .getByText('返却はすぐに保存され、この画面の編集をキャンセルしても元に戻りません。', { exact: false })
      .waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: '返却する' }).click();
    await page.getByText(/台の端末を返却しました/).waitFor();
    await page.getByText('返却が必要な端末はありません').waitFor();
    await context.close();
  });

  test('setting 退職 on the form brings the return panel into view when the employee still holds devices', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    const list = await page.request.get('/api/computers?limit=200');
    expect(list.status()).toBe(200);
    const held = ((await list.json()) as { current_user: number | null; current_user_retired: boolean }[]).find(
      (c) => c.current_user !== null && !c.current_user_retired,
    )!;
    await page.goto(`/employees/${held.current_user}`);
    await page.getByRole('button', { name: '編集' }).click();
    await page.getByLabel('在籍状況').selectOption('RETIRED');
    const panel = page.getByTestId('offboarding-panel');
    await panel.locator('tbody tr').first().waitFor();
    // The whole list of what is held, and the button that returns it, not just the section's edge.
    const inView = () =>
      panel
        .locator('tbody tr')
        .first()
        .evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        });
    await expect.poll(inView).toBe(true);
    await shot(page, 'desktop-employee-retire-reveal');
    await context.close();
  });

  test('a record that does not exist is said so, with no form to edit; a bad id asks nothing', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    for (const path of [
      '/computers/99999',
      '/smartphones/2147483647',
      '/microsoft_office/99999',
      '/employees/abc',
      '/departments/0',
    ]) {
      const failed: string[] = [];
      const onResponse = (r: { status(): number; url(): string }) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      };
      page.on('response', onResponse);
      await page.goto(path);
      await page.getByTestId('record-unavailable').waitFor();
      expect(await page.getByTestId('record-unavailable').innerText()).toContain('このデータは見つかりません');
      expect(await page.getByRole('button', { name: '編集' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: '保存' }).count()).toBe(0);
      page.off('response', onResponse);
      // One failure, one message: the panel says it; no failure toast beside it.
      await page.waitForTimeout(300);
      expect(await page.getByTestId('toast').count(), path).toBe(0);
      // A malformed id is not sent to the server at all (it used to answer 400 for "NaN").
      if (path.endsWith('abc') || path.endsWith('/0')) expect(failed).toEqual([]);
    }
    await context.close();
  });

  test('一般 (staff) is refused on /computers', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    await page.goto('/computers');
    await page.getByTestId('forbidden-page').waitFor();
    expect(await page.getByTestId('computers-page').count()).toBe(0);
    await context.close();
  });
});
