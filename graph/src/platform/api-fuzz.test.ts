/**
 * Schemathesis against the running platform, as システム管理者: the REST facade as
 * schema/openapi/api.yaml describes it, and GraphQL as schema/graphql/schema.graphql does.
 * Requests are generated from the schemas with a fixed seed (the same cases every run), valid and
 * invalid alike, with every check but one: no 5xx or INTERNAL_SERVER_ERROR (bad input is the
 * caller's error: 400, NOT_FOUND, …, never a crash), invalid requests refused, answers and statuses
 * as documented. Left out: positive_data_acceptance (that every schema-valid request succeeds), as a
 * valid-looking request may still break a rule no schema states (a duplicate account, one's own
 * role, a NUL character). Sign-out and sign-in are excluded so the run's session survives.
 *
 * Needs Schemathesis's `st`: SCHEMATHESIS=/path/to/st, or `st` on PATH. Without it the suite is
 * skipped and says so, unless REQUIRE_FUZZ=1 (set by .ci/run, which installs it), which fails it.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { loginToken } from '../test/http.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const requireFuzz = process.env.REQUIRE_FUZZ === '1' || process.env.REQUIRE_FUZZ === 'true';

function run(cmd: string, args: string[], timeoutMs = 420_000): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

const st = process.env.SCHEMATHESIS || 'st';
const available = (await run(st, ['--version'], 30_000)).code === 0;
if (!available) {
  const msg = `[fuzz] SKIPPED api-fuzz: Schemathesis (${st}) not found; install it (pip install schemathesis) or set SCHEMATHESIS (REQUIRE_FUZZ=1 makes this a failure)`;
  if (requireFuzz) throw new Error(msg);
  console.warn(msg);
}

/** The failure sections of Schemathesis's report that are crashes: a 5xx, or a GraphQL INTERNAL_SERVER_ERROR. */
function crashes(out: string): string[] {
  return out
    .split(/\n(?=_{5,} )/)
    .filter(
      (section) => /^_{5,} /.test(section) && (/\[5\d\d\]/.test(section) || section.includes('INTERNAL_SERVER_ERROR')),
    )
    .map((section) => section.slice(0, 1500));
}

describe.skipIf(!available)('generated requests never crash the API (Schemathesis)', () => {
  let p: TestPlatform;
  let token: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    token = await loginToken(p.url, 'sysadmin');
  });
  afterAll(async () => p?.close());

  /**
   * `st run` over one schema against the platform, as sysadmin; the report must show it ran and no crash.
   * One worker: with two threads, Hypothesis's ast.parse raced in CPython 3.11.7 (SystemError "AST
   * constructor recursion depth mismatch", fixed in later CPythons) and failed the run now and then;
   * on two cores the second thread saved nothing (27 s against 29 s).
   */
  async function fuzz(schema: string, url: string, args: string[], base = p.url) {
    const r = await run(st, [
      'run',
      schema,
      '--url',
      `${base}${url}`,
      '-H',
      `Authorization: Bearer ${token}`,
      '--checks',
      'all',
      '--exclude-checks',
      'positive_data_acceptance',
      ...args,
      '--seed',
      '20261123',
      '--workers',
      '1',
      '--suppress-health-check',
      'all',
      '--no-color',
    ]);
    expect(crashes(r.out), r.out.slice(-3000)).toEqual([]);
    expect(r.out).toMatch(/\d+ generated/); // it ran
    return r;
  }

  it('REST: every operation of schema/openapi/api.yaml, no 5xx', async () => {
    // Signing out or in would end the session the run uses.
    const r = await fuzz('schema/openapi/api.yaml', '/api', [
      '--exclude-path-regex',
      'auth/(logout|login|google)|google/oauth',
      '--max-examples',
      '12',
    ]);
    // The failures are listed first, the summary last: both are shown.
    const failures = r.out.indexOf('FAILURES');
    expect(r.code, `${failures >= 0 ? r.out.slice(failures, failures + 6000) : ''}\n…\n${r.out.slice(-1500)}`).toBe(0);
  }, 480_000);

  it('GraphQL: every query and mutation of schema/graphql/schema.graphql, no INTERNAL_SERVER_ERROR', async () => {
    // Schemathesis also reports answers with domain errors (NOT_FOUND for a random id); those are fine, so no exit-code check.
    await fuzz('schema/graphql/schema.graphql', '/graphql', [
      '--exclude-name-regex',
      'logout|[Rr]evoke|[Pp]assword|login|[Ss]ignIn|[Gg]oogle',
      '--max-examples',
      '20',
    ]);
  }, 480_000);

  it('GraphQL over WebSocket: the same operations through graphql-ws, no INTERNAL_SERVER_ERROR', async () => {
    // Schemathesis speaks HTTP: a small bridge hands each generated request to one graphql-ws client
    // (an independent client of the socket) and answers what came back over the socket.
    const client = createClient({
      url: `${p.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const bridge = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        let payload: { query?: string; variables?: Record<string, unknown>; operationName?: string };
        try {
          payload = JSON.parse(body);
        } catch {
          res.writeHead(400).end();
          return;
        }
        let result: unknown = null;
        const answer = (status: number, json: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        client.subscribe(
          { query: payload.query ?? '', variables: payload.variables, operationName: payload.operationName },
          {
            next: (r) => (result = r),
            error: (err) =>
              Array.isArray(err)
                ? answer(400, { errors: err })
                : answer(502, { errors: [{ message: String((err as Error).message ?? err) }] }),
            complete: () => answer(200, result),
          },
        );
      });
    });
    await new Promise<void>((r) => bridge.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(bridge.address() as AddressInfo).port}`;
      const r = await fuzz(
        'schema/graphql/schema.graphql',
        '/graphql',
        ['--exclude-name-regex', 'logout|[Rr]evoke|[Pp]assword|login|[Ss]ignIn|[Gg]oogle', '--max-examples', '10'],
        base,
      );
      // A closed socket would make every later request a 502: the bridge must have stayed connected.
      expect(r.out).not.toMatch(/\[502\]/);
    } finally {
      bridge.close();
      await client.dispose();
    }
  }, 480_000);
});
