/**
 * The live bench's setup: the database with N signed-in employees (sessions inserted set-based),
 * the HTTP client the bench writes changes with, and the open-file limit 5,000 sockets need.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { loadConfig, openOrm, createLogger } from '@intranet/graph';
import { prepareDatabase } from '@intranet/graph/app';
import { keepAliveAgent } from '../lib/load.js';

export interface Viewer {
  id: number;
  token: string;
}

/** The demo company plus `sessions` bench employees (active, 一般), each with a session whose token the bench holds. */
export async function prepareLiveDatabase(
  url: string,
  tmp: string,
  sessions: number,
  log: (l: string) => void,
): Promise<Viewer[]> {
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: tmp, LOG_LEVEL: 'warn', SEED_DEMO: 'auto' });
  const orm = await openOrm(url, 2);
  try {
    await prepareDatabase(config, orm, createLogger('warn'));
  } finally {
    await orm.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Set-based: bench employees (active, 一般) up to `sessions`, and one session row each (token
    // stored as its SHA-256, exactly what SessionService.issue writes) instead of 500 logins.
    await client.query(
      `with d as (select array_agg(id order by id) as ids from department),
            h as (select password_hash from employee where login_id = 'admin')
       insert into employee (name, email, login_id, password_hash, role, status, department_id)
       select 'ライブ 閲覧者' || g, 'live' || g || '@example.co.jp', 'live.' || g, h.password_hash, 'GENERAL', 'ACTIVE', d.ids[1 + g % array_length(d.ids, 1)]
         from generate_series(1, $1::int) g, d, h`,
      [sessions],
    );
    const { rows } = await client.query<{ id: number }>(
      `select id from employee where login_id like 'live.%' order by id limit $1`,
      [sessions],
    );
    const viewers = rows.map((r) => ({ id: r.id, token: randomBytes(32).toString('base64url') }));
    await client.query(
      `insert into session (id, employee_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at, remember, user_agent, ip)
       select h, e, now(), now(), now() + interval '1 day', now() + interval '2 days', true, 'bench-live', '127.0.0.1'
         from unnest($1::text[], $2::int[]) as t(h, e)`,
      [viewers.map((v) => createHash('sha256').update(v.token).digest('hex')), viewers.map((v) => v.id)],
    );
    await client.query('analyze');
    log(`database: ${viewers.length} signed-in employees (sessions inserted set-based)`);
    return viewers;
  } finally {
    await client.end();
  }
}

// Free sockets close before the server's 5 s keep-alive timeout (a reused, server-closed socket would reset).
export const agent = keepAliveAgent(8);

export function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function gql(url: string, token: string, query: string, variables: Record<string, unknown>) {
  const res = await post(`${url}/graphql`, JSON.stringify({ query, variables }), {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
  });
  const json = JSON.parse(res.text) as { data?: Record<string, { id: number; version: number }>; errors?: unknown };
  if (res.status !== 200 || json.errors) throw new Error(`GraphQL ${res.status}: ${res.text.slice(0, 400)}`);
  return json.data!;
}

/** The raised open-file limit, so 5,000 sockets (plus PostgreSQL's) fit into each process. */
export function ensureFdLimit(pids: number[], need: number, log: (l: string) => void) {
  for (const pid of pids) {
    const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
    const m = limits.match(/Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/);
    if (!m) continue;
    const soft = m[1] === 'unlimited' ? Infinity : Number(m[1]);
    const hard = m[2] === 'unlimited' ? Infinity : Number(m[2]);
    if (soft >= need) continue;
    if (hard < need)
      throw new Error(
        `open-file limit of pid ${pid} is ${soft} (hard ${hard}), ${need} needed: raise it (ulimit -n ${need}) and run again`,
      );
    execFileSync('prlimit', [`--pid=${pid}`, `--nofile=${need}:${m[2]}`]);
    log(`raised the open-file limit of pid ${pid} from ${soft} to ${need}`);
  }
}
