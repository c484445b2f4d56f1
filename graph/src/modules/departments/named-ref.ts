import type { AppContext } from '../../platform/context.js';
import { badInput } from '../../platform/errors.js';
import { isDbId } from '../../platform/validation.js';

type Body = Record<string, unknown>;

/** '' / null / absent → null; a numeric string → its number; anything else is left for validation to refuse. */
export function idOrNull(v: unknown): unknown {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v);
  return v;
}

/** A location or department given as `<kind>_id`, or as `<kind>` by name (the old forms sent names) or id. */
export async function namedId(ctx: AppContext, kind: 'location' | 'department', src: Body): Promise<unknown> {
  const byId = src[`${kind}_id`];
  if (byId !== undefined && byId !== '') return idOrNull(byId);
  const v = src[kind];
  if (typeof v !== 'string' || /^\d*$/.test(v.trim())) return idOrNull(v);
  const list =
    kind === 'location' ? await ctx.services.departments.locations(ctx) : await ctx.services.departments.names(ctx);
  const hit = list.find((x) => x.name === v.trim());
  // Named as the request named it (a body or a query alike): `<kind>`.
  if (!hit)
    throw badInput(`${kind === 'location' ? '拠点' : '部署'}「${v}」は存在しません。`, [
      { field: kind, message: `「${v}」は存在しません` },
    ]);
  return hit.id;
}

/** A location or department filter of a `/api` list (`<kind>_id`, or `<kind>` by name or id); null when not given. */
export async function queryRef(ctx: AppContext, kind: 'location' | 'department', q: Body): Promise<number | null> {
  const id = await namedId(ctx, kind, q);
  const param = q[`${kind}_id`] !== undefined && q[`${kind}_id`] !== '' ? `${kind}_id` : kind;
  if (id !== null && !isDbId(id))
    throw badInput(`${param} が正しくありません。`, [{ field: param, message: '正の整数' }]);
  return id as number | null;
}
