/**
 * Files across instances: two graph instances over one database and one bucket, each with a data
 * directory of its own (as two containers have), and the workers' sweep with its own store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../test/db.js';
import { api, loginToken } from '../test/http.js';
import { s3Available, s3SkipNotice, useTestS3, type TestS3 } from '../test/s3.js';
import { png } from '../lib/files/test-files.js';
import { blogImageKey } from '../modules/blog/blog-image.service.js';
import { sweepUnusedBlogImages } from '../modules/blog/blog-image.sweep.js';
import { startGraph, type Graph } from './bootstrap.js';
import { fileStorageFor } from './file-storage.js';
import { createLogger } from './logger.js';

s3SkipNotice('files across instances');

describe.skipIf(!s3Available)('files across instances (S3-compatible store)', () => {
  let db: TestDatabase;
  let s3: TestS3;
  let prefix: string;
  const graphs: Graph[] = [];

  beforeAll(async () => {
    [db, s3] = await Promise.all([createTestDatabase(), useTestS3()]);
    prefix = s3.prefixName();
    // The first instance seeds the demo company's pictures into the bucket.
    for (let i = 0; i < 2; i++)
      graphs.push(await startGraph(testConfig(s3.env(prefix)), createLogger('silent'), db.url));
  }, 180_000);
  afterAll(async () => {
    for (const g of graphs.reverse()) await g.stop();
    for (const g of graphs) fs.rmSync(g.services.config.dataDir, { recursive: true, force: true });
    await db?.close();
    await s3?.close();
  });

  it('a picture uploaded through one instance is served by the other; neither keeps it on its disk', async () => {
    const [one, two] = graphs.map((g) => g.server.url) as [string, string];
    const token = await loginToken(one, 'staff');
    const bytes = await png(40, 30);
    const up = await api(one, 'POST', '/blog_images', {
      token,
      body: { name: '集合写真.png', data_url: `data:image/png;base64,${bytes.toString('base64')}` },
    });
    expect(up.status).toBe(201);
    const url = up.body.file.url as string;
    for (const base of [one, two]) {
      const r = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^image\//);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // Another person who may not see an unused upload gets the same 404 from either instance.
    const other = await loginToken(two, 'admin');
    expect((await fetch(two + url, { headers: { authorization: `Bearer ${other}` } })).status).toBe(404);
    for (const g of graphs) expect(fs.existsSync(path.join(g.services.config.dataDir, 'files'))).toBe(false);
  });

  it('the demo blog seeded by the first instance has its attachments in the bucket, readable through the second', async () => {
    const token = await loginToken(graphs[1]!.server.url, 'staff');
    const page = await api(graphs[1]!.server.url, 'GET', '/blogs?limit=50', { token });
    const withFile = (page.body as { attachment?: { url: string } | null }[]).find((p) => p.attachment?.url);
    expect(withFile).toBeDefined();
    const r = await fetch(graphs[1]!.server.url + withFile!.attachment!.url, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
  });

  it("the workers' sweep deletes an unused picture from the bucket, so no instance serves it again", async () => {
    const [one, two] = graphs.map((g) => g.server.url) as [string, string];
    const token = await loginToken(one, 'staff');
    const up = await api(one, 'POST', '/blog_images', {
      token,
      body: { name: 'unused.png', data_url: `data:image/png;base64,${(await png(20, 20)).toString('base64')}` },
    });
    const url = up.body.file.url as string;
    const key = blogImageKey(url.slice('/api/blog_images/'.length))!;
    const workerStore = fileStorageFor(testConfig(s3.env(prefix))); // a worker process's own client
    expect(await workerStore.exists(key)).toBe(true);
    const inEightDays = new Date(Date.now() + 8 * 86_400_000);
    expect(await sweepUnusedBlogImages(graphs[0]!.orm.em.fork(), workerStore, { now: inEightDays })).toBeGreaterThan(0);
    expect(await workerStore.exists(key)).toBe(false);
    expect((await fetch(two + url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
  });

  it('/readyz checks the store', async () => {
    const r = await fetch(`${graphs[0]!.server.url}/readyz`);
    expect((await r.json()).checks.files).toBe('ok');
  });
});
