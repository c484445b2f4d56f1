import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { handle } from '../../platform/rest.js';
import { checkId } from '../../platform/validation.js';

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
export function fileRoutes(r: Router, path: string, open: (ctx: AppContext, id: number, thumbnail: boolean) => Promise<{ stream: Readable; headers: Record<string, string> }>) {
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
