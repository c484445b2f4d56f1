import { createHash } from 'node:crypto';
import type { ApolloServerPlugin } from '@apollo/server';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { AppContext } from './context.js';
import { AppError, badInput } from './errors.js';

/**
 * A retried write is not a second one: a write sent with an `Idempotency-Key` (the IETF draft's
 * header: a REST POST, or a GraphQL mutation over HTTP) runs once per person and key within 24 hours.
 * A retry gets the first answer and writes nothing (`Idempotent-Replayed: true`); the same key with
 * another request (method, path and body, or the mutation and its variables) is a 400; a retry while
 * the first is still running is a 409 with Retry-After. An answer that failed on our side (a 5xx, an
 * internal error) is not kept, so its retry runs; a first request whose answer was never recorded
 * (its process died) is taken over by a retry after a minute.
 *
 * The key is recorded beside the write, not in its transaction: a process killed in the
 * milliseconds between the write's commit and the key's record can still let a retry write again.
 */

/** Visible ASCII, as an HTTP token or a UUID is. */
const KEY = /^[\x21-\x7e]{1,255}$/;

type Claim = { kind: 'run' } | { kind: 'replay'; status: number; response: unknown };

const hashOf = (request: string) => createHash('sha256').update(request).digest('base64url');

/** Takes the key for this request, or says what the first request with it answered. */
async function claim(em: EntityManager, employeeId: number, key: string, request: string): Promise<Claim> {
  if (!KEY.test(key)) {
    throw badInput('Idempotency-Key は 1〜255 文字の半角英数字・記号で指定してください。', [
      { field: 'Idempotency-Key', message: '1〜255 文字の半角英数字・記号' },
    ]);
  }
  const hash = hashOf(request);
  const taken: unknown[] = await em.execute(
    `insert into idempotent_request (employee_id, key, request_hash) values (?, ?, ?)
       on conflict (employee_id, key) do update set request_hash = excluded.request_hash, status = null, response = null, created_at = now()
       where idempotent_request.created_at < now() - interval '24 hours'
          or (idempotent_request.status is null and idempotent_request.created_at < now() - interval '1 minute' and idempotent_request.request_hash = excluded.request_hash)
     returning 1 as claimed`,
    [employeeId, key, hash],
  );
  if (taken.length) return { kind: 'run' };
  const [row]: { request_hash: string; status: number | null; response: unknown }[] = await em.execute(
    `select request_hash, status, response from idempotent_request where employee_id = ? and key = ?`,
    [employeeId, key],
  );
  if (row && row.request_hash !== hash) {
    throw new AppError(
      'BAD_USER_INPUT',
      'この Idempotency-Key は別のリクエストに使われています。新しいリクエストには新しいキーを使ってください。',
      {
        reason: 'IDEMPOTENCY_KEY_REUSED',
        fieldErrors: [{ field: 'Idempotency-Key', message: '別のリクエストに使用済み' }],
      },
    );
  }
  if (!row || row.status === null) {
    throw new AppError(
      'CONFLICT',
      '同じ Idempotency-Key のリクエストを処理しています。少し待ってから再送してください。',
      {
        reason: 'IDEMPOTENCY_KEY_IN_PROGRESS',
        retryAfterSeconds: 1,
      },
    );
  }
  return { kind: 'replay', status: row.status, response: row.response };
}

/** Keeps the first answer (or, when it failed on our side, lets the key go so the retry runs). */
function settle(
  em: EntityManager,
  employeeId: number,
  key: string,
  answer: { status: number; response: unknown } | null,
  log: Logger,
  requestId?: string,
): void {
  const done = answer
    ? em.execute(`update idempotent_request set status = ?, response = ?::jsonb where employee_id = ? and key = ?`, [
        answer.status,
        JSON.stringify(answer.response),
        employeeId,
        key,
      ])
    : em.execute(`delete from idempotent_request where employee_id = ? and key = ?`, [employeeId, key]);
  done.catch((err: unknown) => log.warn({ err: (err as Error).message, requestId }, 'idempotency key not recorded'));
}

/** `/api`: every POST. */
export function idempotency(log: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get('idempotency-key');
    const user = req.ctx?.user;
    if (key === undefined || req.method !== 'POST' || !user) return next();
    try {
      const em = req.ctx!.em;
      const body = req.is('application/json')
        ? JSON.stringify(req.body ?? null)
        : `${req.get('content-type')} ${req.get('content-length')}`;
      const c = await claim(em, user.id, key, `${req.method} ${req.baseUrl}${req.path}\n${body}`);
      if (c.kind === 'replay') {
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(c.status).json(c.response);
        return;
      }
      let answer: unknown;
      const json = res.json.bind(res);
      res.json = (b: unknown) => {
        answer = b;
        return json(b);
      };
      res.on('finish', () =>
        settle(
          em,
          user.id,
          key,
          res.statusCode < 500 && answer !== undefined ? { status: res.statusCode, response: answer } : null,
          log,
          req.requestId,
        ),
      );
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** GraphQL over HTTP: a mutation sent with the header. */
export function idempotencyPlugin(log: Logger): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart(start) {
      const key = start.request.http?.headers.get('idempotency-key');
      if (key === undefined || key === null) return;
      let claimed: { employeeId: number; em: EntityManager } | null = null;
      return {
        async responseForOperation(rc) {
          const user = rc.contextValue.user;
          if (rc.operation.operation !== 'mutation' || !user) return null;
          const em = rc.contextValue.em;
          try {
            const c = await claim(
              em,
              user.id,
              key,
              `graphql ${rc.request.operationName ?? ''}\n${rc.request.query}\n${JSON.stringify(rc.request.variables ?? {})}`,
            );
            if (c.kind === 'run') {
              claimed = { employeeId: user.id, em };
              return null;
            }
            rc.response.http.headers.set('idempotent-replayed', 'true');
            rc.response.http.status = c.status;
            return { http: rc.response.http, body: { kind: 'single', singleResult: c.response as never } };
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            const { code, ...rest } = err.extensions as Record<string, unknown>;
            rc.response.http.status = err.code === 'CONFLICT' ? 409 : 400;
            if (typeof rest.retryAfterSeconds === 'number')
              rc.response.http.headers.set('retry-after', String(rest.retryAfterSeconds));
            return {
              http: rc.response.http,
              body: {
                kind: 'single',
                singleResult: { errors: [{ message: err.message, extensions: { code, ...rest } }] } as never,
              },
            };
          }
        },
        async willSendResponse(rc) {
          if (!claimed || rc.response.body.kind !== 'single') return;
          const result = rc.response.body.singleResult;
          const ours = result.errors?.some((e) =>
            ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'].includes(String(e.extensions?.code)),
          );
          settle(
            claimed.em,
            claimed.employeeId,
            key,
            ours ? null : { status: rc.response.http.status ?? 200, response: result },
            log,
            rc.contextValue.meta.requestId,
          );
        },
      };
    },
  };
}

/** Keys older than a day answer nothing any more: removed (the hourly housekeeping). */
export async function sweepIdempotencyKeys(em: {
  execute(sql: string, params?: unknown[]): Promise<unknown>;
}): Promise<void> {
  await em.execute(`delete from idempotent_request where created_at < now() - interval '24 hours'`);
}
