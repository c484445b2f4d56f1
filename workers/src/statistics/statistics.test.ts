import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, gql, blogWorld, type BlogWorld } from '@intranet/graph/testing';
import { waitFor } from '@intranet/graph/events';
import type { EventEnvelope } from '@intranet/schema/events';
import { StatisticsConsumer } from './statistics.consumer.js';
import { ROLLUP, rebuiltRows } from './statistics.test-support.js';

// The statistics worker running in-process: random histories of likes, unlikes, seen marks taken
// and given back, comments and their deletion, posts moved to another category or another publish
// start (across month and year boundaries), deleted and written anew; the rollups it keeps equal a
// rebuild from the source tables, and applying the same events again changes nothing.

let w: BlogWorld;
const consumer = new StatisticsConsumer();
const ids: number[] = [];
/** Who wrote each post (only the author edits it). */
const author = new Map<number, string>();
beforeAll(async () => {
  w = await blogWorld({}, { consumers: [consumer] });
  for (const [i, who] of [w.token.staff, w.token.colleague, w.token.admin].entries()) {
    ids.push((await w.post(who, { title: `投稿${i}`, categoryId: w.cat.news, publishStart: w.day(-i) })).id);
    author.set(ids[i]!, who);
  }
});
afterAll(async () => w?.p.close());

const rollup = () => w.sql(ROLLUP);

/** A small deterministic generator (mulberry32), so a failing history can be replayed by its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function run(token: string, q: string, vars: Record<string, unknown>) {
  const r = await gql(w.p.url, q, vars, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data;
}

/** A reader's action, on a post they may no longer see once it moved to 営業通達 (only staff and 管理者 read it): refused as not found. */
async function act(token: string, q: string, vars: Record<string, unknown>) {
  const r = await gql(w.p.url, q, vars, { token });
  if (r.body.errors && r.body.errors[0]?.extensions?.code !== 'NOT_FOUND')
    throw new Error(JSON.stringify(r.body.errors));
}

/** An edit by 管理者 of a post's category and publish start, keeping the rest as it is. */
async function edit(id: number, change: { categoryId: number; publishStart: string }) {
  const [p] = await w.sql(`select title, version from blog_post where id = ?`, [id]);
  await run(author.get(id)!, `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id } }`, {
    id,
    i: { title: p.title, content: doc('本文'), version: p.version, ...change },
  });
}

describe('the statistics worker', () => {
  for (const seed of [1, 2, 3]) {
    it(`keeps the rollups equal to a rebuild over a random history (seed ${seed})`, async () => {
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const people = [w.token.staff, w.token.colleague, w.token.admin];
      for (let step = 0; step < 40; step++) {
        const who = pick(people);
        const id = pick(ids);
        const r = rnd();
        if (r < 0.35)
          await act(who, `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`, {
            id,
            on: rnd() < 0.6,
          });
        else if (r < 0.65) await act(who, `mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`, { id });
        else if (r < 0.75)
          await act(who, `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`, {
            i: { postId: id, content: `コメント${step}` },
          });
        else if (r < 0.82) {
          // 管理者 moves one of their posts (the others may post in ニュース only).
          const mine = ids.filter((i) => author.get(i) === w.token.admin);
          await edit(pick(mine), {
            categoryId: pick([w.cat.news, w.cat.notice]),
            publishStart: w.day(-Math.floor(rnd() * 400)),
          });
        } else if (r < 0.85) {
          await run(w.token.admin, `mutation($id: Int!) { deleteBlogPost(id: $id) }`, { id });
          const made = await w.post(w.token.admin, {
            title: `新しい投稿${step}`,
            categoryId: pick([w.cat.news, w.cat.notice]),
            publishStart: w.day(-Math.floor(rnd() * 60)),
          });
          ids[ids.indexOf(id)] = made.id;
          author.set(made.id, w.token.admin);
        } else {
          const mine = await w.sql(
            `select c.id from blog_comment c join blog_post p on p.id = c.post_id order by c.id desc limit 1`,
          );
          if (mine[0])
            await run(w.token.admin, `mutation($id: Int!) { deleteBlogComment(id: $id) }`, { id: mine[0].id }).catch(
              () => undefined,
            );
        }
      }
      const expected = await rebuiltRows(w.p.db.orm);
      expect(expected.length).toBeGreaterThan(0);
      await waitFor(rollup, (rows) => JSON.stringify(rows) === JSON.stringify(expected), 30_000);
      expect(await rollup()).toEqual(expected);
    }, 120_000);
  }

  it('applying the same events again (a redelivery) leaves the rollups as they are', async () => {
    const before = await rollup();
    const events: EventEnvelope[] = (
      await w.sql(
        `select id, type, aggregate_id as "aggregateId", payload from outbox_sent where type = any(?::text[])`,
        [`{${consumer.handles.join(',')}}`],
      )
    ).map((e) => ({ ...e, aggregateType: 'blog_post', version: 1, occurredAt: new Date().toISOString() }));
    expect(events.length).toBeGreaterThan(10);
    await w.p.db.orm.em.fork().transactional((tx) => consumer.handleBatch(events.reverse(), tx));
    expect(await rollup()).toEqual(before);
  });
});
