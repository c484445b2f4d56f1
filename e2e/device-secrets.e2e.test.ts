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

const history = (page: Page) => page.getByTestId('device-history');

describe('device secrets (issue 22 item 7)', () => {
  test('a computer PIN code is masked, 表示 shows it and the history lists who revealed it; desktop and 390 px', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'devadmin');
    const r = await page.request.post('/api/computers', {
      data: { maker: `Secret-${Date.now()}`, status: '正常', pin_code: '731902', pass: 'Hunter-22' },
    });
    expect(r.status(), await r.text()).toBe(201);
    const { id } = (await r.json()) as { id: number };

    // What the screen reads: no response carries a secret until someone presses 表示.
    const bodies: string[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/graphql'))
        void res.text().then(
          (b) => bodies.push(b),
          () => undefined,
        );
    });
    await page.goto(`/computers/${id}`);
    await page.getByRole('heading', { level: 1, name: 'パソコン詳細' }).waitFor();
    const pin = page.getByTestId('secret-PIN_CODE');
    expect(await pin.innerText()).toBe('●●●●');
    expect(await page.locator('main').innerText()).not.toContain('731902');
    expect(await page.locator('main').innerText()).not.toContain('Hunter-22');
    await history(page).getByText('登録').first().waitFor();
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.join('\n')).not.toMatch(/731902|Hunter-22/);
    await page.screenshot({ path: 'e2e/artifacts/desktop-computer-secret-masked.png', fullPage: true });

    await pin.locator('..').getByRole('button', { name: '表示' }).click();
    await expect.poll(() => pin.innerText()).toBe('731902');
    await history(page).getByText('PINコードを表示').waitFor();
    // Newest first: the reveal, by the signed-in デバイス管理者.
    const newest = await history(page).getByTestId('history-change').first().innerText();
    expect(newest).toContain('PINコードを表示');
    expect(newest).toContain('表示した人: 高橋 健太');
    expect(await page.getByTestId('secret-PASS').innerText()).toBe('●●●●');
    await page.screenshot({ path: 'e2e/artifacts/desktop-computer-secret-revealed.png', fullPage: true });

    await pin.locator('..').getByRole('button', { name: '隠す' }).click();
    await expect.poll(() => pin.innerText()).toBe('●●●●');

    // Edit mode: an empty password input saying a value is saved; its own 表示 also goes through the server (a second reveal in the history).
    await page.getByRole('button', { name: '編集' }).click();
    const input = page.getByLabel('PINコード');
    expect(await input.getAttribute('type')).toBe('password');
    expect(await input.inputValue()).toBe('');
    expect(await input.getAttribute('placeholder')).toBe('登録済み（変更するときだけ入力）');
    await input.locator('..').getByRole('button', { name: '表示' }).click();
    await expect.poll(() => input.getAttribute('type')).toBe('text');
    await expect.poll(() => input.inputValue()).toBe('731902');
    await expect.poll(() => history(page).getByText('PINコードを表示').count()).toBe(2);
    await page.screenshot({ path: 'e2e/artifacts/desktop-computer-secret-editing.png', fullPage: true });
    await page.getByRole('button', { name: 'キャンセル' }).click();

    // A save that changes the password only: the PIN code, never loaded, is kept.
    await page.getByRole('button', { name: '編集' }).click();
    await page.getByLabel('パスワード').fill('NewPass-7');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL((u) => u.pathname === '/computers');
    const saved = (await (await page.request.get(`/api/computers/${id}`)).json()) as { pin_code: string; pass: string };
    expect(saved).toMatchObject({ pin_code: '731902', pass: 'NewPass-7' });

    await page.setViewportSize(PHONE);
    await page.goto(`/computers/sp/${id}`);
    await page.getByTestId('secret-PIN_CODE').waitFor();
    expect(await page.getByTestId('secret-PIN_CODE').innerText()).toBe('●●●●');
    await history(page).getByText('PINコードを表示').first().waitFor();
    await page.screenshot({ path: 'e2e/artifacts/mobile-computer-secret-masked.png', fullPage: true });
    await context.close();
  });
});
