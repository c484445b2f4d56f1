import type { Router } from 'express';
import { sendRevalidated } from '../../platform/conditional.js';
import { handle } from '../../platform/rest.js';
import { toAppError } from '../../platform/errors.js';

const q = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Why a Google consent callback failed, as the schedule screen names it (schedules.google.reason.*). */
const CALLBACK_REASONS = new Set(['state', 'expired', 'user', 'disabled', 'exchange', 'offline', 'scope']);

/** OAuth callback, the spec's external-event calls, and the ICS feed. */
export function googleRoutes(r: Router): void {
  r.get(
    '/google/oauth/callback',
    handle(async (ctx, req, res) => {
      // The browser lands here from Google: always answer with a redirect to the schedule screen.
      const error = q(req.query.error);
      if (error) return void res.redirect(303, `/schedules?google=denied`);
      try {
        await ctx.services.google.callback(ctx, q(req.query.code) ?? '', q(req.query.state) ?? '');
        res.redirect(303, '/schedules?google=connected');
      } catch (err) {
        // The schedule screen says why from its own catalogue: a code and a reason key, never text
        // in the URL (a link could otherwise make the intranet display any message).
        const e = toAppError(err);
        const reason = e.extensions.reason;
        const why = typeof reason === 'string' && CALLBACK_REASONS.has(reason) ? `&reason=${reason}` : '';
        res.redirect(303, `/schedules?google=error&code=${encodeURIComponent(e.code)}${why}`);
      }
    }),
  );
  r.get(
    '/schedules/google',
    handle(async (ctx, req) => ctx.services.google.externalEvents(ctx, req.query.timeMin, req.query.timeMax)),
  );
  r.put(
    '/schedules/google/:googleEventId',
    handle(async (ctx, req) =>
      ctx.services.google.respondExternal(ctx, String(req.params.googleEventId), req.body ?? {}),
    ),
  );
  r.get(
    '/ics/:token.ics',
    handle(async (ctx, req, res) => {
      const token = String(req.params.token);
      const body = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await ctx.services.ics.feed(ctx.em, token) : null;
      if (body === null) return void res.status(404).type('text/plain').send('Not Found');
      sendRevalidated(req, res, 200, 'text/calendar; charset=utf-8', body, 'private, max-age=300');
    }),
  );
}
