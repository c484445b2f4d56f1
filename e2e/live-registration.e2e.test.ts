import type { Browser, Page } from 'playwright-core';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_PASSWORD, baseURL, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const titles = (page: Page) =>
  page.locator('[data-testid="blog-grid"] [data-testid="blog-card-title"]').allInnerTexts();

/**
 * Another subscriber of the same server, registered for sure (it waits for its registration frame):
 * its copy of an event says the server has delivered that event to its subscriptions.
 */
async function probe(loginId: string): Promise<{ delivered(title: string): Promise<void>; close(): Promise<void> }> {
  const login = await fetch(`${baseURL()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId, password: DEMO_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const client: Client = createClient({
    url: `${baseURL().replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  const waiting = new Map<string, () => void>();
  await new Promise<void>((registered, failed) => {
    client.subscribe<{ blogChanged: { post: { title: string } | null } }>(
      { query: 'subscription { blogChanged { post { title } } }', extensions: { livePosition: true } },
      {
        next: (m) => {
          if (!m.data) return registered();
          const title = m.data.blogChanged.post?.title;
          if (title) waiting.get(title)?.();
        },
        error: failed,
        complete: () => undefined,
      },
    );
  });
  return {
    delivered: (title) => new Promise((resolve) => waiting.set(title, resolve)),
    close: async () => {
      await client.dispose();
    },
  };
}

/**
 * devadmin (author, a member of 開発ブログ) and sysadmin (viewer, a member too), a probe subscriber,
 * and the viewer's feed subscription held on its way to the server until `release`.
 */
async function heldFeed() {
  const author = await newPage(browser);
  const viewer = await newPage(browser);
  await signIn(author.page, 'devadmin');
  await signIn(viewer.page, 'sysadmin');
  const categories = (await (await author.page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  const dev = categories.find((c) => c.category_name === '開発ブログ')!.category_id;
  const watcher = await probe('devadmin');
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let sawSubscribe!: () => void;
  const subscribeHeld = new Promise<void>((r) => (sawSubscribe = r));
  await viewer.page.routeWebSocket(/\/graphql$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (typeof m === 'string' && m.includes('"type":"subscribe"') && m.includes('BlogChanged')) {
        sawSubscribe();
        void released.then(() => server.send(m));
      } else server.send(m);
    });
  });
  return { author, viewer, dev, watcher, subscribeHeld, release };
}

describe('live screens: a change between the first query and the subscription', () => {
  test('a post committed after the feed read and delivered before its subscription registered appears without reload', async () => {
    // The viewer's feed subscription is held on its way to the server until the post is out.
    const { author, viewer, dev, watcher, subscribeHeld, release } = await heldFeed();
    await viewer.page.goto('/blog');
    await viewer.page.getByTestId('blog-card').first().waitFor(); // the feed's first query has answered
    await subscribeHeld; // and its subscription is not registered
    await viewer.page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    const title = `購読の登録前に書かれた投稿 ${Date.now()}`;
    const delivered = watcher.delivered(title);
    const made = await author.page.request.post('/api/blogs', {
      data: { title, content: '<p>登録の前に届いた変更</p>', category_id: dev },
    });
    expect(made.status()).toBe(201);
    await delivered; // the server has sent it to every subscription registered so far
    expect(await titles(viewer.page)).not.toContain(title);

    release();
    await expect.poll(() => titles(viewer.page)).toContain(title);
    expect(await viewer.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await viewer.page.screenshot({ path: 'e2e/artifacts/desktop-blog-live-registration.png' });

    const { blog_id } = (await made.json()) as { blog_id: number };
    await author.page.request.delete(`/api/blogs/${blog_id}`, { headers: { 'X-Requested-With': 'fetch' } });
    await watcher.close();
    await Promise.all([author, viewer].map((x) => x.context.close()));
  });
  test('the re-read that follows keeps the pages the viewer had loaded (もっと見る), the new post on top', async () => {
    const { author, viewer, dev, watcher, subscribeHeld, release } = await heldFeed();
    await viewer.page.goto('/blog');
    await viewer.page.getByTestId('blog-card').first().waitFor();
    await subscribeHeld;
    // The viewer reads on: a second page of cards.
    const firstPage = (await titles(viewer.page)).length;
    await viewer.page.getByRole('button', { name: 'もっと見る' }).click();
    await expect.poll(async () => (await titles(viewer.page)).length).toBeGreaterThan(firstPage);
    const loaded = await titles(viewer.page);

    const title = `読み進めた後の投稿 ${Date.now()}`;
    const delivered = watcher.delivered(title);
    const made = await author.page.request.post('/api/blogs', {
      data: { title, content: '<p>登録の前に届いた変更</p>', category_id: dev },
    });
    expect(made.status()).toBe(201);
    await delivered;

    release();
    await expect.poll(() => titles(viewer.page)).toContain(title);
    // Every card the viewer had loaded is still there, in order, below the new one (the re-read
    // brings a page more: new posts push the loaded ones down).
    const after = (await titles(viewer.page)).filter((t) => t !== title);
    expect(after.slice(0, loaded.length)).toEqual(loaded);

    const { blog_id } = (await made.json()) as { blog_id: number };
    await author.page.request.delete(`/api/blogs/${blog_id}`, { headers: { 'X-Requested-With': 'fetch' } });
    await watcher.close();
    await Promise.all([author, viewer].map((x) => x.context.close()));
  });
});
