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
