import type { Router } from 'express';
import { badInput } from '../../platform/errors.js';
import { bodyTable, handle } from '../../platform/rest.js';
import type { ApiKeyView } from './api-key.service.js';

const keyBody = bodyTable({ name: 'name', role: 'role', readOnly: 'read_only', expiresAt: 'expires_at' });

function toApiKey(k: ApiKeyView) {
  return {
    api_key_id: k.id,
    name: k.name,
    prefix: k.prefix,
    role: k.role,
    read_only: k.readOnly,
    expires_at: k.expiresAt?.toISOString() ?? null,
    created_at: k.createdAt.toISOString(),
    created_by: { employee_id: k.createdBy.id, full_name: k.createdBy.name },
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    revoked_by: k.revokedBy ? { employee_id: k.revokedBy.id, full_name: k.revokedBy.name } : null,
  };
}

/** An ISO 8601 date-time, or null/absent for none. */
function dateTime(v: unknown): Date | null | undefined {
  if (v === undefined || v === null) return v as null | undefined;
  const d = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : new Date(NaN);
  if (Number.isNaN(d.getTime()))
    throw badInput('有効期限は ISO 8601 の日時で指定してください。', [
      { field: 'expires_at', message: 'YYYY-MM-DDTHH:MM:SSZ' },
    ]);
  return d;
}

/** GET /api_keys, POST /api_keys (201, the secret once), DELETE /api_keys/{id}: 管理者 and システム管理者. */
export function apiKeyRoutes(r: Router): void {
  r.get(
    '/api_keys',
    handle(async (ctx) => (await ctx.services.apiKeys.list(ctx)).map(toApiKey)),
  );
  r.post(
    '/api_keys',
    handle(
      async (ctx, req) => {
        const b = await keyBody.read(ctx, req.body ?? {});
        const made = await ctx.services.apiKeys.create(ctx, { ...b, expiresAt: dateTime(b.expiresAt) });
        return { ...toApiKey(made.apiKey), secret: made.secret };
      },
      { status: 201, body: keyBody },
    ),
  );
  r.delete(
    '/api_keys/:id',
    handle(async (ctx, req) => toApiKey(await ctx.services.apiKeys.revoke(ctx, Number(req.params.id)))),
  );
}
