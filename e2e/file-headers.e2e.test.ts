import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileResponseHeaders } from '@intranet/graph';
import { pdf } from '@intranet/graph/fixtures';
import { launchBrowser } from './support/browser.js';

/**
 * The headers lib/files sends with a stored file, in the real Chromium: a PDF still opens in the
 * built-in viewer (the CSP carries `sandbox`, which older Chromium refused for PDFs), directly and
 * in our own frame, and a body a browser renders as HTML runs no script under the same headers.
 * A server of the test's own: no platform routes are involved.
 */
describe('served files in Chromium', () => {
  let browser: Browser;
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    const body = pdf();
    server = http.createServer((req, res) => {
      const send = (headers: Record<string, string>, data: string | Buffer) => {
        for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
        res.end(data);
      };
      if (req.url === '/files/blog/doc.pdf')
        return send(
          fileResponseHeaders({ contentType: 'application/pdf', displayName: '議事録.pdf', size: body.length }),
          body,
        );
      if (req.url === '/files/blog/page.png') {
        // As if a browser ignored nosniff and the type: the policy alone must stop the script.
        return send(
          {
            ...fileResponseHeaders({ contentType: 'image/png', displayName: 'page.png' }),
            'Content-Type': 'text/html',
          },
          '<script>document.title = "ran"</script><p>x</p>',
        );
      }
      if (req.url === '/preview')
        return send(
          { 'Content-Type': 'text/html' },
          '<title>preview</title><iframe src="/files/blog/doc.pdf" width="600" height="500"></iframe>',
        );
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /**
   * Whether the area shows the viewer's dark background and the white PDF page on it: a blank
   * white page (what a refused viewer leaves) or an empty viewer (dark only) do not pass.
   */
  async function pageDrawn(
    page: Page,
    clip: { x: number; y: number; width: number; height: number },
  ): Promise<boolean> {
    const shot = await page.screenshot({ clip });
    const { channels } = await sharp(shot).stats();
    return channels.slice(0, 3).every((c) => c.max >= 250 && c.min <= 60);
  }

  it('opens a PDF in the built-in viewer, directly and in a same-origin frame', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.goto(`${origin}/files/blog/doc.pdf`);
    await expect
      .poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://')), { timeout: 20_000 })
      .toBe(true);
    await expect
      .poll(() => pageDrawn(page, { x: 400, y: 100, width: 250, height: 150 }), { timeout: 20_000 })
      .toBe(true);
    await page.goto(`${origin}/preview`);
    await expect
      .poll(() => pageDrawn(page, { x: 100, y: 150, width: 300, height: 200 }), { timeout: 20_000 })
      .toBe(true);
    await page.close();
  });

  it('runs no script of a file rendered as HTML', async () => {
    const page = await browser.newPage();
    const blocked = page.waitForEvent('console', (m) => /sandboxed|Content Security Policy/i.test(m.text()));
    await page.goto(`${origin}/files/blog/page.png`);
    await blocked;
    expect(await page.title()).toBe('');
    await page.close();
  });
});
