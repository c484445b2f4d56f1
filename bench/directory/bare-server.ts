/**
 * Bench child: the bare baseline. node:http + one pg Pool (same size as the graph's), answering
 * POST /graphql with the same JSON as the directory query, from one hand-written SQL. It reads the
 * same JSON body, authenticates the same Bearer token with the same session lookup (and the same
 * once-a-minute idle-expiry slide) and applies the same page checks, so the comparison is fair.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { runChild } from '../lib/child.js';
import { Timings } from '../lib/timers.js';

// The same labels as graph/src/modules/employees/employee.enums.ts (the run checks the answers match).
const ROLE_LABEL: Record<string, string> = { ADMIN: '管理者', DEVICE_ADMIN: 'デバイス管理者', SYSTEM_ADMIN: 'システム管理者', GENERAL: '一般' };
const STATUS_LABEL: Record<string, string> = { ACTIVE: '在籍', RETIRED: '退職' };

const SESSION_SQL = `select s.employee_id, e.name, e.role, e.status, e.department_id, s.remember,
        s.idle_expires_at, s.absolute_expires_at, s.last_seen_at
   from session s join employee e on e.id = s.employee_id
  where s.id = $1`;
// The same SQL shape as EmployeeService.list: page by index order, join names onto the page, count apart.
const PAGE_SQL = `with page as (select e.id from employee e where e.status = 'ACTIVE' order by e.id limit $1 offset $2)
  select e.id, e.name, e.email, e.role, e.status, e.department_id, d.name as department_name,
         e.location_id, l.name as location_name, (select count(*) from employee e where e.status = 'ACTIVE') as total
    from page p join employee e on e.id = p.id
    left join department d on d.id = e.department_id left join location l on l.id = e.location_id
   order by e.id`;
const COUNT_SQL = `select count(*) as total from employee e where e.status = 'ACTIVE'`;

const diag = process.env.BENCH_DIAG === '1';
const timings = new Timings();
const idleMs = Number(process.env.SESSION_IDLE_MINUTES ?? 120) * 60_000;
const rememberIdleMs = Number(process.env.SESSION_REMEMBER_IDLE_DAYS ?? 14) * 86_400_000;

function send(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
const gqlError = (message: string, code: string) => JSON.stringify({ errors: [{ message, extensions: { code } }], data: null });

async function authenticate(pool: pg.Pool, header: string | undefined): Promise<boolean> {
  if (!header?.startsWith('Bearer ')) return false;
  const token = header.slice(7).trim();
  if (!token || token.length > 200) return false;
  const id = createHash('sha256').update(token).digest('hex');
  const t0 = diag ? performance.now() : 0;
  const { rows } = await pool.query(SESSION_SQL, [id]);
  const row = rows[0];
  let ok = false;
  if (row) {
    const now = Date.now();
    if (row.status !== 'ACTIVE' || row.idle_expires_at.getTime() <= now || row.absolute_expires_at.getTime() <= now) {
      await pool.query('delete from session where id = $1', [id]);
    } else {
      ok = true;
      if (now - row.last_seen_at.getTime() > 60_000) {
        await pool.query('update session set last_seen_at = now(), idle_expires_at = least($1, absolute_expires_at) where id = $2', [
          new Date(now + (row.remember ? rememberIdleMs : idleMs)),
          id,
        ]);
      }
    }
  }
  if (diag) timings.add('session', performance.now() - t0);
  return ok;
}

async function directory(pool: pg.Pool, offset: number, limit: number): Promise<string> {
  const t0 = diag ? performance.now() : 0;
  const { rows } = await pool.query(PAGE_SQL, [limit, offset]);
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && offset > 0) total = Number((await pool.query(COUNT_SQL)).rows[0].total);
  if (diag) timings.add('pageQuery', performance.now() - t0);
  const items = rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    roleLabel: ROLE_LABEL[r.role],
    statusLabel: STATUS_LABEL[r.status],
    department: r.department_id != null ? { id: r.department_id, name: r.department_name } : null,
    location: r.location_id != null ? { id: r.location_id, name: r.location_name } : null,
  }));
  return JSON.stringify({ data: { employees: { total, items } } });
}

await runChild(
  async () => {
    // Same size and idle timeout as the graph's pool (MikroORM → knex → tarn: idle connections close after 30 s).
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10), idleTimeoutMillis: 30_000 });
    const server = http.createServer((req, res) => {
      const t0 = diag ? performance.now() : 0;
      if (diag) res.once('finish', () => timings.add('http', performance.now() - t0));
      if (req.method !== 'POST' || req.url !== '/graphql') return send(res, 404, gqlError('not found', 'NOT_FOUND'));
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { variables?: { offset?: unknown; limit?: unknown } };
          if (!(await authenticate(pool, req.headers.authorization))) return send(res, 200, gqlError('ログインしてください。', 'UNAUTHENTICATED'));
          const offset = Number(body.variables?.offset ?? 0);
          const limit = Number(body.variables?.limit ?? 50);
          if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 200) {
            return send(res, 200, gqlError('ページ指定が正しくありません。', 'BAD_USER_INPUT'));
          }
          send(res, 200, await directory(pool, offset, limit));
        } catch (err) {
          send(res, 500, gqlError((err as Error).message, 'INTERNAL_SERVER_ERROR'));
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
