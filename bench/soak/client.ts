/**
 * The soak's HTTP side: one keep-alive agent per VU (a browser's connection), every request timed
 * and classified (ok, an expected conflict, another 4xx, an error), the failures kept for the
 * report, and the shared helpers of the soak's files.
 */
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import type { Login, Loose } from './documents.js';

export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
export const pct = (s: number[], p: number) =>
  s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN;
export const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
export const mean = (a: number[]) => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : NaN);
export const pad2 = (n: number) => String(n).padStart(2, '0');
export const hhmm = (min: number) => `${pad2(Math.floor(min / 60))}:${pad2(min % 60)}`;
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);

export type Outcome = 'ok' | 'conflict' | 'client' | 'error';
export interface Sample {
  at: number; // ms since the load started
  kind: string;
  ms: number;
  outcome: Outcome;
}
export interface Failure {
  at: number;
  vu: number;
  login: string;
  kind: string;
  request: string;
  status: number;
  requestId?: string;
  detail: string;
}
export interface Res {
  status: number;
  body: string;
  requestId?: string;
  networkError?: string;
}

export interface Vu {
  n: number;
  login: Login;
  token: string;
  employeeId: number;
  agent: http.Agent;
  sub: 'schedule' | 'employee';
  ws?: WebSocket;
  events: number;
  closing: boolean;
  reconnects: number;
  subscribedMs?: number;
}

export const byOutcomeCount = (list: Sample[], o: Outcome) => list.filter((s) => s.outcome === o).length;

/** Requests to the platform on `port`, and their outcomes since the load started. */
export class SoakClient {
  readonly agents: http.Agent[] = [];
  readonly samples: Sample[] = [];
  readonly failures: Failure[] = [];
  readonly clientErrors: Failure[] = [];
  readonly wsFailures: { at: number; vu: number; login: string; what: string }[] = [];
  loadStart = 0;

  /** `onResult`: sees every answer (the scale bench's load balancer marks an instance down on a network error). */
  constructor(
    private readonly port: number,
    private readonly onResult?: (r: Res) => void,
  ) {}

  now = () => performance.now() - this.loadStart;

  newAgent = () => {
    const a = new http.Agent({ keepAlive: true, maxSockets: 2, timeout: 4000 });
    this.agents.push(a);
    return a;
  };

  request = (
    agent: http.Agent | false,
    method: string,
    p: string,
    token: string | null,
    body?: unknown,
  ): Promise<Res> =>
    new Promise((resolve) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (data !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(data));
      }
      if (token) headers.authorization = `Bearer ${token}`;
      const req = http.request(
        { agent, host: '127.0.0.1', port: this.port, path: p, method, headers, timeout: 15_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              requestId: res.headers['x-request-id'] as string | undefined,
            }),
          );
          res.on('error', (e) => resolve({ status: 0, body: '', networkError: e.message }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout after 15 s')));
      req.on('error', (e) =>
        resolve({
          status: 0,
          body: '',
          networkError: `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`.trim(),
        }),
      );
      req.end(data);
    });

  /** ok / conflict (expected) / client (another 4xx or GraphQL error) / error (5xx, INTERNAL_SERVER_ERROR, network). */
  classify = (r: Res, graphql: boolean): { outcome: Outcome; detail: string; json: unknown } => {
    if (r.networkError) return { outcome: 'error', detail: `network: ${r.networkError}`, json: null };
    let json: unknown = null;
    try {
      json = r.body ? JSON.parse(r.body) : null;
    } catch {
      /* not JSON */
    }
    if (r.status >= 500) return { outcome: 'error', detail: `HTTP ${r.status}: ${r.body.slice(0, 600)}`, json };
    if (graphql) {
      const errs = (json as { errors?: { message?: string; extensions?: { code?: string } }[] } | null)?.errors;
      if (!json) return { outcome: 'error', detail: `HTTP ${r.status}, no JSON: ${r.body.slice(0, 300)}`, json };
      if (errs?.length) {
        const codes = errs.map((e) => e.extensions?.code ?? '?');
        const detail = `HTTP ${r.status} ${codes.join(',')}: ${errs
          .map((e) => e.message)
          .join(' | ')
          .slice(0, 600)}`;
        if (codes.includes('INTERNAL_SERVER_ERROR') || codes.includes('?')) return { outcome: 'error', detail, json };
        if (codes.every((c) => c === 'CONFLICT')) return { outcome: 'conflict', detail, json };
        return { outcome: 'client', detail, json };
      }
      if (r.status !== 200) return { outcome: 'client', detail: `HTTP ${r.status}: ${r.body.slice(0, 300)}`, json };
      return { outcome: 'ok', detail: '', json };
    }
    if (r.status === 409) return { outcome: 'conflict', detail: r.body.slice(0, 300), json };
    if (r.status >= 400 || r.status === 0)
      return { outcome: 'client', detail: `HTTP ${r.status}: ${r.body.slice(0, 600)}`, json };
    return { outcome: 'ok', detail: '', json };
  };

  call = async (vu: Vu, kind: string, method: string, p: string, body: unknown, graphql: boolean) => {
    const s0 = performance.now();
    const r = await this.request(vu.agent, method, p, vu.token, body);
    const dt = performance.now() - s0;
    this.onResult?.(r);
    const c = this.classify(r, graphql);
    this.samples.push({ at: this.now(), kind, ms: dt, outcome: c.outcome });
    if (c.outcome === 'error' || c.outcome === 'client') {
      const list = c.outcome === 'error' ? this.failures : this.clientErrors;
      if (list.length < 200)
        list.push({
          at: this.now(),
          vu: vu.n,
          login: vu.login,
          kind,
          request: `${method} ${p}${body === undefined ? '' : ' ' + JSON.stringify(body).slice(0, 700)}`,
          status: r.status,
          requestId: r.requestId,
          detail: c.detail,
        });
    }
    return c;
  };
  gql = async (vu: Vu, kind: string, query: string, variables: Record<string, unknown>) => {
    const op = /^(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
    const c = await this.call(vu, kind, 'POST', '/graphql', { operationName: op, query, variables }, true);
    return { ...c, data: c.outcome === 'ok' ? ((c.json as { data: Record<string, unknown> }).data as Loose) : null };
  };
  rest = (vu: Vu, kind: string, method: string, p: string, body?: unknown) =>
    this.call(vu, kind, method, p, body, false);
}
