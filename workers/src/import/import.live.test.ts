import { PassThrough } from 'node:stream';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import {
  createTestDatabase,
  testConfig,
  type TestDatabase,
  loginToken,
  subscribeRegistered,
} from '@intranet/graph/testing';
import { createLogger, type Config } from '@intranet/graph';
import { startGraph, type Graph } from '@intranet/graph/app';
import { createImportConsumer, startImportScheduler } from './index.js';
import { recordMany } from '@intranet/graph/events';

// importJobChanged over graphql-ws: an apply job of 12,000 rows (chunks of a few thousand rows, a
// progress event after each), followed by its creator; another デバイス管理者 and 一般 get nothing.

const ROWS = 12_000;
const BAD_EVERY = 100; // rows with an unknown 拠点 (rejected)

let db: TestDatabase;
let graph: Graph;
let config: Config;
let url: string;
let stopScheduler: () => Promise<void>;
let devadmin: string;
let otherDevadmin: string;
let staff: string;

beforeAll(async () => {
  db = await createTestDatabase();
  config = testConfig({ IMPORT_WAIT_MS: '0' });
  const log = createLogger(process.env.TEST_LOG ?? 'silent');
  const consumer = createImportConsumer({ config, log });
  graph = await startGraph(config, log, db.url, { consumers: [consumer] });
  stopScheduler = startImportScheduler(consumer, graph.orm, 60_000).stop;
  url = graph.server.url;
  // A second デバイス管理者 (the demo's password), who did not create the job.
  await sql(
    `update employee set role = 'DEVICE_ADMIN', login_id = 'devadmin2', password_hash = (select password_hash from employee where login_id = 'devadmin')
      where id = (select id from employee where role = 'GENERAL' and status = 'ACTIVE' and login_id <> 'staff' order by id limit 1)`,
  );
  [devadmin, otherDevadmin, staff] = await Promise.all(
    ['devadmin', 'devadmin2', 'staff'].map((l) => loginToken(url, l)),
  );
});
afterAll(async () => {
  await stopScheduler?.();
  await graph?.stop();
  await db?.close();
  if (config) fs.rmSync(config.dataDir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> => db.orm.em.fork().getConnection().execute(q, params);

const client = (token: string): Client =>
  createClient({
    url: url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });

/**
 * Written as our exports are (exceljs's streaming writer: no `<dimension>`), with long 型番 in the
 * first rows only: the running total is then an estimate from the sheet's size, and too low.
 */
async function bigFile(): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
  const ws = wb.addWorksheet('パソコン');
  ws.addRow(['管理番号', 'メーカー', '型番', '拠点', '状態']).commit();
  for (let i = 1; i <= ROWS; i++)
    ws.addRow([
      `LIVE-${i}`,
      'Dell',
      i <= 2000 ? `M-${i % 7} ${'長い型番'.repeat(10)}` : `M-${i % 7}`,
      i % BAD_EVERY === 0 ? '札幌' : '東京',
      '正常',
    ]).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function smallFile(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン');
  ws.addRow(['管理番号', 'メーカー', '型番', '拠点', '状態']);
  for (let i = 1; i <= 5; i++) ws.addRow([`LATE-${i}`, 'Dell', `M-${i}`, '東京', '正常']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(file: Buffer, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'live.xlsx');
  const res = await fetch(`${url}/api/computers/import?wait=0`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.json();
  expect(res.status).toBe(202);
  return body.job_id;
}

interface JobMessage {
  status: string;
  processedRows: number;
  totalRows: number | null;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}
const SUBSCRIPTION = `subscription($id: ID!) { importJobChanged(id: $id) { id status processedRows totalRows created updated unchanged rejected } }`;

/** Subscribes and collects messages; `done` resolves on the first SUCCEEDED/FAILED message or an error. */
function follow(token: string, id: string) {
  const c = client(token);
  const messages: JobMessage[] = [];
  const errors: unknown[] = [];
  let registered!: Promise<void>;
  const done = new Promise<void>((resolve) => {
    ({ registered } = subscribeRegistered<{ importJobChanged: JobMessage }>(
      c,
      { query: SUBSCRIPTION, variables: { id } },
      {
        next: (m) => {
          if (m.errors) errors.push(m.errors);
          const j = m.data?.importJobChanged;
          if (j) messages.push(j);
          if (m.errors || j?.status === 'SUCCEEDED' || j?.status === 'FAILED') resolve();
        },
        error: (e) => {
          errors.push(e);
          resolve();
        },
        complete: () => resolve(),
      },
    ));
  });
  return { messages, errors, done, registered, dispose: () => c.dispose() };
}

describe('importJobChanged', () => {
  it('streams an apply job to its creator with non-decreasing progress and the final counts; others get nothing', async () => {
    const file = await bigFile();
    // Hold the worker until every subscription is in place: the job blocks on its first chunk's
    // `select … for update` from computer while this transaction holds the table.
    const lock = new pg.Client({ connectionString: db.url });
    await lock.connect();
    let released = false;
    try {
      await lock.query('begin');
      await lock.query('lock table computer in access exclusive mode');
      const id = await upload(file, devadmin);
      const mine = follow(devadmin, id);
      const other = follow(otherDevadmin, id);
      const general = follow(staff, id);
      await Promise.all([other.done, general.done]);
      await mine.registered;
      expect(mine.messages).toEqual([]);
      await lock.query('commit');
      released = true;

      await Promise.race([
        mine.done,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no final message within 60 s')), 60_000)),
      ]);
      const m = mine.messages;
      expect(mine.errors).toEqual([]);
      expect(m.length).toBeGreaterThanOrEqual(3); // several progress messages, then the final one
      for (let i = 1; i < m.length; i++) expect(m[i].processedRows).toBeGreaterThanOrEqual(m[i - 1].processedRows);
      expect(m.slice(0, -1).every((x) => x.status === 'RUNNING')).toBe(true);
      expect(m.slice(0, -1).some((x) => x.processedRows > 0 && x.processedRows < ROWS)).toBe(true);
      // While running, the total is what the sheet says of itself (here an estimate, too low: see
      // bigFile), never below what is done (a message sent before the estimate was made has none).
      const running = m.filter((x) => x.status === 'RUNNING' && x.processedRows > 0 && x.totalRows !== null);
      expect(running.length).toBeGreaterThan(0);
      for (const x of running) expect(x.totalRows!).toBeGreaterThanOrEqual(x.processedRows);
      const bad = Math.floor(ROWS / BAD_EVERY);
      expect(m[m.length - 1]).toEqual({
        id,
        status: 'SUCCEEDED',
        processedRows: ROWS,
        totalRows: ROWS,
        created: ROWS - bad,
        updated: 0,
        unchanged: 0,
        rejected: bad,
      });
      expect(await sql(`select count(*)::int as n from computer where asset_number like 'LIVE-%'`)).toEqual([
        { n: ROWS - bad },
      ]);

      // Another デバイス管理者 who did not create the job: NOT_FOUND, no data, ever.
      expect(other.messages).toEqual([]);
      expect(JSON.stringify(other.errors)).toContain('NOT_FOUND');
      // 一般: refused.
      expect(general.messages).toEqual([]);
      expect(JSON.stringify(general.errors)).toContain('FORBIDDEN');
      await Promise.all([mine.dispose(), other.dispose(), general.dispose()]);
    } finally {
      if (!released) await lock.query('rollback').catch(() => undefined);
      await lock.end();
    }
  }, 120_000);

  it('a progress event that reaches the feed after the job ended sends nothing: the ended state goes out once, last', async () => {
    const id = await upload(await smallFile(), devadmin);
    const first = follow(devadmin, id);
    await Promise.race([
      first.done,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no final message within 60 s')), 60_000)),
    ]);
    await first.dispose();
    const [job] = await sql(
      `select status, processed_rows, total_rows, created, updated, unchanged, rejected from import_job where id = ?`,
      [id],
    );
    expect(job.status).toBe('succeeded');

    // As the live feed can bring them: the last progress event and the job's end in one delivery,
    // both read when the job has already ended.
    const late = follow(devadmin, id);
    await late.registered;
    const em = db.orm.em.fork();
    await em.transactional(async (tx) => {
      await recordMany(tx, [
        {
          type: 'import.progressed',
          aggregateId: id,
          actorId: null,
          payload: { jobId: id, processedRows: job.processed_rows, totalRows: job.total_rows },
        },
        {
          type: 'import.finished',
          aggregateId: id,
          actorId: null,
          payload: {
            jobId: id,
            status: 'succeeded',
            processedRows: job.processed_rows,
            totalRows: job.total_rows,
            created: job.created,
            updated: job.updated,
            unchanged: job.unchanged,
            rejected: job.rejected,
          },
        },
      ]);
    });
    await late.done;
    await new Promise((r) => setTimeout(r, 500)); // anything else would have arrived by now
    expect(late.errors).toEqual([]);
    expect(late.messages.map((m) => m.status)).toEqual(['SUCCEEDED']);
    await late.dispose();
  }, 90_000);
});
