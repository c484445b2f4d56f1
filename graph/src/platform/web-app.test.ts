import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import { precompressDir } from '../../../web/scripts/precompress.mjs';
import { acceptedCodings, webApp } from './web-app.js';

const SCRIPT = `export const greeting = ${JSON.stringify('こんにちは '.repeat(400))};\n`;
const HTML = `<!doctype html><html lang="ja"><head><title>社内ポータル</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;
/** The build's pre-rendered sign-in pages (web/scripts/prerender.mjs), one per banner. */
const loginHtml = (banner: string) => HTML.replace('<body>', `<body><main>ログイン ${banner}</main>`);
let dist: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-app-test-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), HTML);
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'export {};\n');
  fs.writeFileSync(path.join(dist, 'login.html'), loginHtml('none'));
  fs.writeFileSync(path.join(dist, 'login-expired.html'), loginHtml('expired'));
  fs.writeFileSync(path.join(dist, 'login-signedOut.html'), loginHtml('signedOut'));
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await precompressDir(dist);
  const app = express();
  app.use(webApp(dist));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The raw answer: body bytes as sent, not decoded (fetch would decode them). */
function get(
  urlPath: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        base + urlPath,
        { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      )
      .on('error', reject);
  });
}

describe('acceptedCodings', () => {
  it('prefers Brotli over gzip whatever order the browser lists them in, and honours q=0 and *', () => {
    expect(acceptedCodings('gzip, deflate, br, zstd').map((c) => c.name)).toEqual(['br', 'gzip']);
    expect(acceptedCodings('gzip').map((c) => c.name)).toEqual(['gzip']);
    expect(acceptedCodings('br;q=0, gzip;q=0.5').map((c) => c.name)).toEqual(['gzip']);
    expect(acceptedCodings('*').map((c) => c.name)).toEqual(['br', 'gzip']);
    expect(acceptedCodings('*, gzip;q=0').map((c) => c.name)).toEqual(['br']);
    expect(acceptedCodings('identity')).toEqual([]);
    expect(acceptedCodings(undefined)).toEqual([]);
  });
});

describe('the web app', () => {
  it('sends a hashed script precompressed with Brotli, typed as JavaScript, cached for a year as immutable', async () => {
    const r = await get('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers.vary).toMatch(/Accept-Encoding/i);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 5);
    expect(zlib.brotliDecompressSync(r.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a client without Brotli and the plain file to one that accepts no coding', async () => {
    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(SCRIPT);
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('sends files too small to compress as they are; unhashed files are cached for an hour', async () => {
    const tiny = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
    const icon = await get('/favicon.svg', 'br, gzip');
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers client-side routes with index.html, compressed and never cached', async () => {
    for (const route of ['/', '/schedules/sp', '/computers?maker=HP', '/index.html']) {
      const r = await get(route, 'gzip, deflate, br');
      expect(r.status, route).toBe(200);
      expect(r.headers['content-type'], route).toMatch(/^text\/html/);
      expect(r.headers['content-encoding'], route).toBe('br');
      expect(r.headers['cache-control'], route).toBe('no-cache');
      expect(zlib.brotliDecompressSync(r.body).toString(), route).toBe(HTML);
    }
  });

  it('answers /login with the pre-rendered sign-in page that has the banner its reason asks for; every other route and unknown reasons as the build wrote them', async () => {
    const page = async (route: string) => zlib.brotliDecompressSync((await get(route, 'br')).body).toString();
    expect(await page('/login')).toBe(loginHtml('none'));
    expect(await page('/login?next=%2Fcomputers')).toBe(loginHtml('none'));
    expect(await page('/login?reason=expired&next=%2Fcomputers')).toBe(loginHtml('expired'));
    expect(await page('/login?reason=signedOut')).toBe(loginHtml('signedOut'));
    expect(await page('/login?reason=other')).toBe(loginHtml('none'));
    expect(await page('/login.html')).toBe(HTML); // a route like any other, not the file
    expect(await page('/computers')).toBe(HTML);
  });

  it('answers a missing hashed asset with 404, not with the app page, and never leaves the build directory', async () => {
    expect((await get('/assets/gone-000000.js', 'br')).status).toBe(404);
    const escape = await get('/assets/..%2f..%2f..%2fetc%2fpasswd', 'br');
    expect(escape.body.toString()).not.toContain('root:');
  });
});
