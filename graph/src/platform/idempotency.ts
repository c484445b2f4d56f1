import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, badInput } from './errors.js';

/** The IETF draft's key: visible ASCII, as an HTTP token or a UUID is. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A retried create is not a second one: a POST sent with `Idempotency-Key` (the IETF draft's header)
 * runs once per person and key within 24 hours. A retry gets the first answer, status and body, with
 * `Idempotent-Replayed: true`, and writes nothing; the same key with another request (method, path
 * or body) is a 400; a retry while the first is still running is a 409 with Retry-After. An answer
 * that failed on our side (5xx) is not kept, so its retry runs; a first request whose answer was
 * never recorded (its process died) is taken over by a retry after a minute.
 *
 * The key is recorded beside the write, not in its transaction: a process killed in the
 * milliseconds between the write's commit and the key's record can still let a retry write again.
 */
export function idempotency(log: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get('idempotency-key');
    const user = req.ctx?.user;
    if (key === undefined || req.method !== 'POST' || !user) return next();
    try {
      if (!KEY.test(key)) {
        throw badInput('Idempotency-Key は 1〜255 文字の半角英数字・記号で指定してください。', [{ field: 'Idempotency-Key', message: '1〜255 文字の半角英数字・記号' }]);
      }
      const em = req.ctx!.em;
      const hash = createHash('sha256')
        .update(
          `${req.method} ${req.baseUrl}${req.path}\n${req.is('application/json') ? JSON.stringify(req.body ?? null) : `${req.get('content-type')} ${req.get('content-length')}`}`,
        )
        .digest('base64url');
      const claim = (): Promise<unknown[]> =>
        em.execute(
          `insert into idempotent_request (employee_id, key, request_hash) values (?, ?, ?)
             on conflict (employee_id, key) do update set request_hash = excluded.request_hash, status = null, response = null, created_at = now()
             where idempotent_request.created_at < now() - interval '24 hours'
                or (idempotent_request.status is null and idempotent_request.created_at < now() - interval '1 minute' and idempotent_request.request_hash = excluded.request_hash)
           returning 1 as claimed`,
          [user.id, key, hash],
        );
      if (!(await claim()).length) {
        const [row]: { request_hash: string; status: number | null; response: unknown }[] = await em.execute(
          `select request_hash, status, response from idempotent_request where employee_id = ? and key = ?`,
          [user.id, key],
        );
        if (row && row.request_hash !== hash) {
          throw new AppError('BAD_USER_INPUT', 'この Idempotency-Key は別のリクエストに使われています。新しいリクエストには新しいキーを使ってください。', {
            reason: 'IDEMPOTENCY_KEY_REUSED',
            fieldErrors: [{ field: 'Idempotency-Key', message: '別のリクエストに使用済み' }],
          });
        }
        if (!row || row.status === null) {
          throw new AppError('CONFLICT', '同じ Idempotency-Key のリクエストを処理しています。少し待ってから再送してください。', {
            reason: 'IDEMPOTENCY_KEY_IN_PROGRESS',
            retryAfterSeconds: 1,
          });
        }
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(row.status).json(row.response);
        return;
      }
      let answer: unknown;
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        answer = body;
        return json(body);
      };
      res.on('finish', () => {
        const kept = res.statusCode < 500 && answer !== undefined;
        const record = kept
          ? em.execute(`update idempotent_request set status = ?, response = ?::jsonb where employee_id = ? and key = ?`, [res.statusCode, JSON.stringify(answer), user.id, key])
          : em.execute(`delete from idempotent_request where employee_id = ? and key = ?`, [user.id, key]);
        record.catch((err: unknown) => log.warn({ err: (err as Error).message, requestId: req.requestId }, 'idempotency key not recorded'));
      });
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Keys older than a day answer nothing any more: removed (the daily housekeeping). */
export async function sweepIdempotencyKeys(em: { execute(sql: string, params?: unknown[]): Promise<unknown> }): Promise<void> {
  await em.execute(`delete from idempotent_request where created_at < now() - interval '24 hours'`);
}
