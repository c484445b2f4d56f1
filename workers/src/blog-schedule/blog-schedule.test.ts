import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm, defaultFilesRoot, LocalFileStorage, newFileKey } from '@intranet/graph';
import { blogWorld, type BlogWorld, liveWatch } from '@intranet/graph/testing';
import { BlogScheduler } from './index.js';
import { png } from '@intranet/graph/fixtures';

let w: BlogWorld;
let second: MikroORM;
const posts: Record<string, number> = {};
const quiet = { info: () => undefined, warn: () => undefined };
/** 00:00:00.000 in Tokyo on `day`. */
const midnight = (day: string) => new Date(`${day}T00:00:00+09:00`);

beforeAll(async () => {
  w = await blogWorld();
  // A second process's connections: the two schedulers do not share a pool.
  second = await openOrm(w.p.db.url, 2);
  const s = w.token.staff;
  const news = w.cat.news;
  posts.startsToday = (await w.post(s, { title: '今日の 0 時に公開', categoryId: news, publishStart: w.today })).id;
  posts.endedYesterday = (
    await w.post(s, { title: '昨日まで公開', categoryId: news, publishStart: w.day(-5), publishEnd: w.day(-1) })
  ).id;
  posts.pinFromToday = (
    await w.post(s, {
      title: '今日から速報',
      categoryId: news,
      publishStart: w.day(-5),
      isPin: true,
      pinStart: w.today,
      pinEnd: w.day(3),
    })
  ).id;
  posts.pinToYesterday = (
    await w.post(s, {
      title: '昨日まで速報',
      categoryId: news,
      publishStart: w.day(-5),
      isPin: true,
      pinStart: w.day(-3),
      pinEnd: w.day(-1),
    })
  ).id;
  posts.publishedIntoPin = (
    await w.post(s, {
      title: '公開と同時に速報',
      categoryId: news,
      publishStart: w.today,
      isPin: true,
      pinStart: w.day(-1),
      pinEnd: w.day(2),
    })
  ).id;
  posts.tomorrow = (await w.post(s, { title: '明日公開', categoryId: news, publishStart: w.day(1) })).id;
  posts.endsToday = (
    await w.post(s, { title: '今日まで公開', categoryId: news, publishStart: w.day(-5), publishEnd: w.today })
  ).id;
  posts.draft = (await w.post(s, { title: '下書き', categoryId: news, publishStart: w.today, isDraft: true })).id;
  // The scheduler last fired yesterday.
  await w.sql(
    `insert into blog_scheduler (id, fired_day) values (true, ?::date) on conflict (id) do update set fired_day = excluded.fired_day`,
    [w.day(-1)],
  );
});
afterAll(async () => {
  await second?.close();
  await w?.p.close();
});

/** The scheduler's events recorded so far, as "type post-title-key". */
async function fired(): Promise<string[]> {
  const rows = await w.sql(
    `select type, aggregate_id from outbox_all where type in ('blog.post.published', 'blog.post.expired', 'blog.post.pin_started', 'blog.post.pin_ended') order by type, aggregate_id::int`,
  );
  const key = Object.fromEntries(Object.entries(posts).map(([k, id]) => [String(id), k]));
  return rows.map((r) => `${r.type} ${key[r.aggregate_id]}`).sort();
}

describe('the blog scheduler', () => {
  it('fires nothing before midnight in Tokyo; at 00:00 JST two schedulers on the same database record each change once, and members see it live', async () => {
    const live = liveWatch(w);
    const member = await live.watch(w.token.colleague);
    const justBefore = new BlogScheduler(w.p.db.orm, quiet, () => new Date(midnight(w.today).getTime() - 1));
    expect(await justBefore.tick()).toMatchObject({ busy: false, day: null, events: [] });

    const a = new BlogScheduler(w.p.db.orm, quiet, () => midnight(w.today));
    const b = new BlogScheduler(second, quiet, () => midnight(w.today));
    const results = await Promise.all([a.tick(), b.tick()]);
    expect(results.filter((r) => r?.events.length).length).toBe(1);
    const once = [
      'blog.post.expired endedYesterday',
      'blog.post.pin_ended pinToYesterday',
      'blog.post.pin_started pinFromToday',
      'blog.post.pin_started publishedIntoPin',
      'blog.post.published publishedIntoPin',
      'blog.post.published startsToday',
    ];
    expect(await fired()).toEqual(once);
    // Ticking again, on either, fires nothing more.
    await Promise.all([a.tick(), b.tick(), new BlogScheduler(second, quiet, () => midnight(w.today)).tick()]);
    expect(await fired()).toEqual(once);

    // The same live delivery as any change: published for the members, expired takes the card away.
    await live.drained(member, w.token.colleague);
    expect(member.changes.find((c) => c.postId === posts.startsToday)).toMatchObject({
      kind: 'PUBLISHED',
      post: { title: '今日の 0 時に公開', state: 'PUBLISHED' },
    });
    expect(member.changes.find((c) => c.kind === 'EXPIRED')).toMatchObject({
      postId: posts.endedYesterday,
      post: null,
    });
    expect(member.changes.find((c) => c.kind === 'PIN_STARTED' && c.postId === posts.pinFromToday)?.post?.pinned).toBe(
      true,
    );
    expect(member.changes.find((c) => c.kind === 'PIN_ENDED')).toMatchObject({
      postId: posts.pinToYesterday,
      post: { pinned: false },
    });
    expect(member.changes.map((c) => c.postId)).not.toContain(posts.draft);
    await member.close();
  });

  it('a restart resumes from the last day fired: the days missed are fired once, nothing fired before is fired again', async () => {
    const before = await fired();
    const restarted = new BlogScheduler(second, quiet, () => midnight(w.day(2)));
    const r = await restarted.tick();
    expect(r).toMatchObject({ busy: false, since: w.today, day: w.day(2) });
    const added = (await fired()).filter((e) => !before.includes(e));
    expect(added.sort()).toEqual(['blog.post.expired endsToday', 'blog.post.published tomorrow']);
    expect(await fired()).toEqual([...before, ...added].sort());
    const [row] = await w.sql(`select to_char(fired_day, 'YYYY-MM-DD') as d from blog_scheduler`);
    expect(row.d).toBe(w.day(2));
  });

  it('a worker that finds the day being fired by another does nothing and tries again later', async () => {
    const em = w.p.db.orm.em.fork();
    await em.transactional(async (tx) => {
      await tx.execute(`select 1 from blog_scheduler for update`);
      const r = await new BlogScheduler(second, quiet, () => midnight(w.day(3))).tick();
      expect(r).toMatchObject({ busy: true, events: [] });
    });
    const later = await new BlogScheduler(second, quiet, () => midnight(w.day(3))).tick();
    expect(later).toMatchObject({ busy: false, since: w.day(2), day: w.day(3) });
  });

  it('with the day it sweeps the body pictures no post has shown for a week', async () => {
    const files = new LocalFileStorage(defaultFilesRoot(w.p.config.dataDir));
    const key = newFileKey('blog-images', 'png');
    await files.put(key, await png(20, 20), { contentType: 'image/png' });
    await w.sql(
      `insert into blog_image (key, name, content_type, size, uploaded_by_id, created_at) values (?, 'old.png', 'image/png', 1, ?, ?)`,
      [key, w.id.staff, new Date(midnight(w.day(4)).getTime() - 8 * 86_400_000)],
    );
    await new BlogScheduler(second, quiet, () => midnight(w.day(4)), files).tick();
    expect(await w.sql(`select 1 from blog_image where key = ?`, [key])).toEqual([]);
    expect(await files.exists(key)).toBe(false);
  });
});
