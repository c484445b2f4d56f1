import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../test/http.js';
import { defaultFilesRoot, LocalFileStorage } from '../../lib/files/index.js';
import { png } from '../../lib/files/test-files.js';
import { blogWorld, type BlogWorld } from './blog.test-support.js';
import { blogImageKey } from './blog-image.service.js';
import { sweepUnusedBlogImages } from './blog-image.sweep.js';

let w: BlogWorld;
let store: LocalFileStorage;
beforeAll(async () => {
  w = await blogWorld();
  store = new LocalFileStorage(defaultFilesRoot(w.p.config.dataDir));
});
afterAll(async () => {
  await w?.p.close();
});

const CREATE = `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id version } }`;
const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id version } }`;
const withImages = (...urls: string[]) => ({
  blocks: [
    { type: 'paragraph', data: { text: '写真' } },
    ...urls.map((url) => ({ type: 'image', data: { file: { url } } })),
  ],
});

async function upload(name: string): Promise<{ url: string; key: string }> {
  const r = await api(w.p.url, 'POST', '/blog_images', {
    token: w.token.staff,
    body: { name, data_url: `data:image/png;base64,${(await png(40, 30)).toString('base64')}` },
  });
  expect(r.status).toBe(201);
  const url = r.body.file.url as string;
  return { url, key: blogImageKey(url.slice('/api/blog_images/'.length))! };
}
const age = (key: string, days: number) =>
  w.sql(`update blog_image set created_at = now() - make_interval(days => ?) where key = ?`, [days, key]);
const rows = async (keys: string[]) =>
  (await w.sql(`select key from blog_image where key = any(?::text[])`, [`{${keys.join(',')}}`]))
    .map((r) => r.key as string)
    .sort();

describe('the unused body-picture sweep', () => {
  it("removes the files and rows of pictures no post shows after 7 days; shown, recent and earlier revisions' ones stay until their post goes, and a post cannot take a swept one", async () => {
    const shown = await upload('shown.png');
    const dropped = await upload('dropped.png');
    const neverUsed = await upload('never.png');
    const recent = await upload('recent.png');
    const made = await gql(
      w.p.url,
      CREATE,
      { i: { title: '写真の記事', categoryId: w.cat.news, content: withImages(shown.url, dropped.url) } },
      { token: w.token.staff },
    );
    const post = made.body.data.createBlogPost as { id: number; version: number };
    // An edit takes one picture out of the body: the first revision still shows it, so it stays the post's.
    const edited = await gql(
      w.p.url,
      UPDATE,
      {
        id: post.id,
        i: { title: '写真の記事', categoryId: w.cat.news, content: withImages(shown.url), version: post.version },
      },
      { token: w.token.staff },
    );
    expect(edited.body.errors).toBeUndefined();
    for (const img of [shown, dropped, neverUsed]) await age(img.key, 8);

    expect(await sweepUnusedBlogImages(w.p.db.orm.em.fork(), store)).toBe(1);
    expect(await rows([shown.key, dropped.key, neverUsed.key, recent.key])).toEqual(
      [shown.key, dropped.key, recent.key].sort(),
    );
    expect([
      await store.exists(shown.key),
      await store.exists(dropped.key),
      await store.exists(neverUsed.key),
      await store.exists(recent.key),
    ]).toEqual([true, true, false, true]);
    // The post goes with its history: both its pictures are nobody's now.
    const gone = await gql(
      w.p.url,
      `mutation($id: Int!) { deleteBlogPost(id: $id) }`,
      { id: post.id },
      {
        token: w.token.staff,
      },
    );
    expect(gone.body.errors).toBeUndefined();
    expect(await sweepUnusedBlogImages(w.p.db.orm.em.fork(), store)).toBe(2);
    expect(await rows([shown.key, dropped.key, recent.key])).toEqual([recent.key]);
    // Its uploader no longer gets it, and a post that still names it is refused with the body's message.
    expect(
      (await fetch(`${w.p.url}${neverUsed.url}`, { headers: { authorization: `Bearer ${w.token.staff}` } })).status,
    ).toBe(404);
    const late = await gql(
      w.p.url,
      CREATE,
      { i: { title: '遅れた保存', categoryId: w.cat.news, content: withImages(neverUsed.url) } },
      { token: w.token.staff },
    );
    expect(late.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'POST_CONTENT' });
    // Nothing more to take.
    expect(await sweepUnusedBlogImages(w.p.db.orm.em.fork(), store)).toBe(0);
  });

  it('takes each picture once when two workers sweep at the same time', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(`many-${i}.png`)));
    for (const img of many) await age(img.key, 30);
    const counts = await Promise.all([
      sweepUnusedBlogImages(w.p.db.orm.em.fork(), store),
      sweepUnusedBlogImages(w.p.db.orm.em.fork(), store),
    ]);
    expect(counts[0]! + counts[1]!).toBe(6);
    expect(await rows(many.map((m) => m.key))).toEqual([]);
  });
});
