/**
 * The statistics worker in its Kafka consumer group on a real broker: a history of likes, unlikes,
 * first views and comments written through the API while the worker process is killed with SIGKILL
 * mid-batch and the broker is stopped; another worker starts while the broker is down and waits
 * for it. Afterwards the rollups equal a rebuild from the source tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gql,
  blogWorld,
  type BlogWorld,
  kafkaAvailable,
  kafkaSkipNotice,
  useTestKafka,
  type TestKafka,
} from '@intranet/graph/testing';
import { waitFor } from '@intranet/graph/events';
import { spawnCli } from '../main.test-support.js';
import { ROLLUP, rebuiltRows } from './statistics.test-support.js';

kafkaSkipNotice('workers/src/statistics/statistics.kafka.test.ts');

describe.skipIf(!kafkaAvailable)('the statistics worker on Kafka: SIGKILL mid-batch and a broker restart', () => {
  let k: TestKafka;
  let w: BlogWorld;
  let env: Record<string, string>;
  const children: ReturnType<typeof spawnCli>[] = [];
  const ids: number[] = [];

  beforeAll(async () => {
    k = await useTestKafka({ own: true });
    const s = k.settings(4);
    env = {
      KAFKA_BROKERS: k.brokers,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      KAFKA_PARTITIONS: '4',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      EVENT_RETRY_BASE_MS: '20',
    };
    w = await blogWorld(env);
    for (const [i, who] of [w.token.staff, w.token.colleague, w.token.admin, w.token.staff].entries()) {
      ids.push((await w.post(who, { title: `投稿${i}`, categoryId: w.cat.news, publishStart: w.day(-i) })).id);
    }
  }, 180_000);
  afterAll(async () => {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await w?.p.close();
    await k?.close();
  });

  function worker() {
    const proc = spawnCli(['--only', 'statistics', '--concurrency', '2', '--port', '0'], {
      LOG_LEVEL: 'warn',
      DATABASE_URL: w.p.db.url,
      ...env,
    });
    children.push(proc);
    return proc;
  }
  /** What the worker processes said, for a failure to show. */
  const outputs = () =>
    children
      .map(
        (c, i) =>
          `--- worker ${i} (exit ${c.child.exitCode ?? c.child.signalCode ?? 'running'}):\n${c.output().slice(-6000)}`,
      )
      .join('\n');

  it('keeps the rollups equal to a rebuild', async () => {
    const first = worker();
    let second: ReturnType<typeof worker> | undefined;
    const people = [w.token.staff, w.token.colleague, w.token.admin];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const run = async (token: string, q: string, vars: Record<string, unknown>) => {
      const r = await gql(w.p.url, q, vars, { token });
      if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
    };
    for (let step = 0; step < 240; step++) {
      const who = people[Math.floor(rnd() * people.length)]!;
      const id = ids[Math.floor(rnd() * ids.length)]!;
      const r = rnd();
      if (r < 0.4)
        await run(who, `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`, {
          id,
          on: rnd() < 0.6,
        });
      else if (r < 0.7) await run(who, `mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`, { id });
      else
        await run(who, `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`, {
          i: { postId: id, content: `コメント${step}` },
        });
      if (step === 60) first.child.kill('SIGKILL');
      if (step === 100) await k.own!.stop();
      if (step === 110) second = worker(); // starts while the broker is down: it waits for it
      if (step === 150) {
        // Longer than kafkajs's own connection retries (~20 s), after which a start used to exit.
        await new Promise((r) => setTimeout(r, 25_000));
        expect(second!.child.exitCode, outputs()).toBeNull();
        await k.own!.restart();
      }
    }
    const expected = await rebuiltRows(w.p.db.orm);
    expect(expected.length).toBeGreaterThan(0);
    await waitFor(
      () => w.sql(ROLLUP),
      (rows) => JSON.stringify(rows) === JSON.stringify(expected),
      120_000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message.slice(0, 2000)}\n${outputs()}`);
    });
    expect(await w.sql(ROLLUP)).toEqual(expected);
  }, 300_000);
});
