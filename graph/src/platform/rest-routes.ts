import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Request, Response, Router } from 'express';
import type { AppContext } from './context.js';
import { handle } from './rest.js';
import { checkId } from './validation.js';
import { sendXlsx, type XlsxExport } from './xlsx-export.js';

/** Route handlers every area's `/api` shares (lists, exports, deletes, files). */

type Guard = (ctx: AppContext) => unknown;

/** DELETE /{resource}/{id}: the service deletes it; the answer names it as `{ <idField>: id, deleted: true }`. */
export function deleteRoute(idField: string, noun: string, remove: (ctx: AppContext, id: number) => Promise<unknown>) {
  return handle(async (ctx, req) => {
    const id = Number(req.params.id);
    checkId(id, noun);
    await remove(ctx, id);
    return { [idField]: id, deleted: true };
  });
}

/** GET {path} and {path}/thumbnail: a stored file with its headers; `open` decides who may have it (NOT_FOUND otherwise). */
export function fileRoutes(
  r: Router,
  path: string,
  open: (
    ctx: AppContext,
    id: number,
    thumbnail: boolean,
  ) => Promise<{ stream: Readable; headers: Record<string, string> }>,
) {
  for (const thumbnail of [false, true]) {
    r.get(
      `${path}${thumbnail ? '/thumbnail' : ''}`,
      handle(async (ctx, req, res) => {
        const file = await open(ctx, Number(req.params.id), thumbnail);
        res.set(file.headers);
        await pipeline(file.stream, res);
      }),
    );
  }
}

/** A keyset page as /api answers it: the records, the next page's cursor in X-Next-Cursor (absent on the last). */
export function cursorPage<V>(
  res: Response,
  p: { items: V[]; nextCursor: string | null },
  toApi: (v: V) => unknown,
): unknown[] {
  if (p.nextCursor) res.setHeader('X-Next-Cursor', p.nextCursor);
  return p.items.map(toApi);
}

/** A list route: `guard` first (so other roles learn nothing from filters), then the page as REST records, the total in X-Total-Count. */
export function listRoute<F, V>(
  guard: Guard,
  filter: (ctx: AppContext, q: Request['query']) => Promise<F>,
  list: (ctx: AppContext, f: F, offset: unknown, limit: unknown) => Promise<{ items: V[]; total: number }>,
  toApi: (v: V) => unknown,
) {
  return handle(async (ctx, req, res) => {
    guard(ctx);
    const page = await list(ctx, await filter(ctx, req.query), req.query.offset, req.query.limit);
    res.setHeader('X-Total-Count', String(page.total));
    return page.items.map(toApi);
  });
}

/** An export route: `guard` first, then the filtered list as an .xlsx download. */
export function exportRoute<F, V>(
  guard: Guard,
  filter: (ctx: AppContext, q: Request['query']) => Promise<F>,
  exportOf: (ctx: AppContext, f: F) => Promise<XlsxExport<V>>,
) {
  return handle(async (ctx, req, res) => {
    guard(ctx);
    await sendXlsx(res, await exportOf(ctx, await filter(ctx, req.query)));
  });
}
