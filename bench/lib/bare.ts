/**
 * The bare baselines' shared side (child processes): node:http + one pg Pool of the graph's size,
 * POST /graphql with a JSON body, the same session lookup as the platform (Bearer token, else the
 * session cookie; SHA-256 of
 * the token, the same expiry checks and once-a-minute idle-expiry slide), GraphQL-shaped errors.
 * A bench's bare server supplies only `answer(body)`: its hand-written SQL and the JSON it builds.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { runChild } from './child.js';
import { Timings } from './timers.js';

export const diag = process.env.BENCH_DIAG === '1';
export const timings = new Timings();

/** Thrown by an answer to send a GraphQL error (code as in the platform's errors). */
export class BareError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const SESSION_SQL = `select s.employee_id, e.name, e.role, e.status, e.department_id, s.remember,
        s.idle_expires_at, s.absolute_expires_at, s.last_seen_at
   from session s join employee e on e.id = s.employee_id
  where s.id = $1`;

const idleMs = Number(process.env.SESSION_IDLE_MINUTES ?? 120) * 60_000;
const rememberIdleMs = Number(process.env.SESSION_REMEMBER_IDLE_DAYS ?? 14) * 86_400_000;

export interface BareUser {
  id: number;
  name: string;
  role: string;
  departmentId: number | null;
}

function send(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
const gqlError = (message: string, code: string) =>
  JSON.stringify({ errors: [{ message, extensions: { code } }], data: null });

/** The session token as the platform reads it (graph/src/platform/cookies.ts tokenFrom): the Bearer header, else the cookie. */
function tokenOf(headers: http.IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  const m = /(?:^|;\s*)intranet_sid=([^;]*)/.exec(headers.cookie ?? '');
  return m ? decodeURIComponent(m[1].trim()) : undefined;
}

async function authenticate(pool: pg.Pool, headers: http.IncomingHttpHeaders): Promise<BareUser | null> {
  const token = tokenOf(headers);
  if (!token || token.length > 200) return null;
  const id = createHash('sha256').update(token).digest('hex');
  const t0 = diag ? performance.now() : 0;
  const { rows } = await pool.query(SESSION_SQL, [id]);
  const row = rows[0];
  let user: BareUser | null = null;
  if (row) {
    const now = Date.now();
    if (row.status !== 'ACTIVE' || row.idle_expires_at.getTime() <= now || row.absolute_expires_at.getTime() <= now) {
      await pool.query('delete from session where id = $1', [id]);
    } else {
      user = { id: row.employee_id, name: row.name, role: row.role, departmentId: row.department_id };
      if (now - row.last_seen_at.getTime() > 60_000) {
        await pool.query(
          'update session set last_seen_at = now(), idle_expires_at = least($1, absolute_expires_at) where id = $2',
          [new Date(now + (row.remember ? rememberIdleMs : idleMs)), id],
        );
      }
    }
  }
  if (diag) timings.add('session', performance.now() - t0);
  return user;
}

export type BareAnswer = (pool: pg.Pool, user: BareUser, variables: Record<string, unknown>) => Promise<string>;

/** Runs the bare server child: answers POST /graphql with `answer` (timed as `timingName` in diagnostic mode). */
export async function serveBare(timingName: string, answer: BareAnswer): Promise<void> {
  await runChild(
    async () => {
      // Same size and idle timeout as the graph's pool (MikroORM → knex → tarn: idle connections close after 30 s).
      const pool = new pg.Pool({
        connectionString: process.env.DATABASE_URL,
        max: Number(process.env.DB_POOL_MAX ?? 10),
        idleTimeoutMillis: 30_000,
      });
      const server = http.createServer((req, res) => {
        const t0 = diag ? performance.now() : 0;
        if (diag) res.once('finish', () => timings.add('http', performance.now() - t0));
        if (req.method !== 'POST' || req.url !== '/graphql') return send(res, 404, gqlError('not found', 'NOT_FOUND'));
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { variables?: Record<string, unknown> };
            const user = await authenticate(pool, req.headers);
            if (!user) return send(res, 200, gqlError('ログインしてください。', 'UNAUTHENTICATED'));
            const t1 = diag ? performance.now() : 0;
            const out = await answer(pool, user, body.variables ?? {});
            if (diag) timings.add(timingName, performance.now() - t1);
            send(res, 200, out);
          } catch (err) {
            if (err instanceof BareError) send(res, 200, gqlError(err.message, err.code));
            else send(res, 500, gqlError((err as Error).message, 'INTERNAL_SERVER_ERROR'));
          }
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as import('node:net').AddressInfo;
      return {
        info: { url: `http://127.0.0.1:${port}`, pid: process.pid },
        stop: async () => {
          server.closeAllConnections();
          await new Promise<void>((r) => server.close(() => r()));
          await pool.end();
        },
      };
    },
    { stats: () => (diag ? { timings: timings.summary() } : {}) },
  );
}

/** Page checks as the platform's checkPage (same limits, same error). */
export function bareCheckPage(
  offset: unknown,
  limit: unknown,
  dfltLimit = 50,
  max = 200,
): { offset: number; limit: number } {
  const o = offset === undefined || offset === null ? 0 : Number(offset);
  const l = limit === undefined || limit === null ? dfltLimit : Number(limit);
  if (!Number.isInteger(o) || o < 0 || !Number.isInteger(l) || l < 1 || l > max)
    throw new BareError('ページ指定が正しくありません。', 'BAD_USER_INPUT');
  return { offset: o, limit: l };
}
