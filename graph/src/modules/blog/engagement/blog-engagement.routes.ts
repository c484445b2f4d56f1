import type { Request, Router } from 'express';
import { badInput, forbidden } from '../../../platform/errors.js';
import { checkCrossSiteSafe, handle } from '../../../platform/rest.js';
import { checkId, pathId, queryId } from '../../../platform/validation.js';
import type { AppContext } from '../../../platform/context.js';

/** The spec's employee_id (path, query or body) must be the signed-in employee: no one marks for another. */
function callerOnly(ctx: AppContext, value: unknown, field: string): void {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1)
    throw badInput(`${field} が正しくありません（社員の ID）。`, [{ field, message: '正の整数' }]);
  if (id !== ctx.user?.id)
    throw forbidden(`${field} はログイン中の社員の ID にしてください（ほかの社員の分は操作できません）。`);
}

const csv = (ids: number[]) => ids.join(',');

/**
 * GET /blogs/{id}/toggle_like/{employee_id}, GET /blogs/{id}/toggle_seen/{employee_id} (the spec's
 * toggles: writes behind GET, so a cookie-signed request must come from this app's own pages),
 * GET /blogs/{id}/likers (a page of who liked it), GET /blog_save?employee_id=, POST /blog_save.
 */
export function blogEngagementRoutes(r: Router): void {
  r.get(
    '/blogs/:id/likers',
    handle(async (ctx, req) =>
      (
        await ctx.services.blog.engagement.likers(ctx, pathId(req.params.id, '投稿'), req.query.offset, req.query.limit)
      ).map((l) => ({ employee_id: l.id, name: l.name, department: l.departmentName })),
    ),
  );
  for (const [path, mark, field] of [
    ['toggle_like', 'like', 'likes_employee_ids'],
    ['toggle_seen', 'seen', 'seen_employee_ids'],
  ] as const) {
    r.get(
      `/blogs/:id/${path}/:employee_id`,
      handle(async (ctx, req: Request) => {
        checkCrossSiteSafe(req);
        callerOnly(ctx, req.params.employee_id, 'employee_id');
        const id = Number(req.params.id);
        checkId(id, '投稿');
        const holders = await ctx.services.blog.engagement.toggle(ctx, mark, id);
        return { blog_id: id, [field]: csv(holders) };
      }),
    );
  }
  r.get(
    '/blog_save',
    handle(async (ctx, req) => {
      const employeeId = queryId(req.query.employee_id as string | undefined, 'employee_id') ?? ctx.user?.id;
      callerOnly(ctx, employeeId, 'employee_id');
      const ids = await ctx.services.blog.engagement.savedPostIds(ctx);
      return ids.map((blogId) => ({ blog_id: blogId, employee_id: employeeId, is_save: 1 }));
    }),
  );
  r.post(
    '/blog_save',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      callerOnly(ctx, b.employee_id, 'employee_id');
      const blogId = Number(b.blog_id);
      checkId(blogId, '投稿');
      const isSave = saveFlag(b.is_save);
      await ctx.services.blog.engagement.set(ctx, 'save', blogId, isSave);
      return { blog_id: blogId, employee_id: ctx.user!.id, is_save: isSave ? 1 : 0 };
    }),
  );
}

/** is_save: 1 or 0 (true/false and "1"/"0" too, as tools send them). */
function saveFlag(v: unknown): boolean {
  if (v === 1 || v === true || v === '1' || v === 'true') return true;
  if (v === 0 || v === false || v === '0' || v === 'false') return false;
  throw badInput('is_save は 1（保存する）か 0（保存をやめる）にしてください。', [
    { field: 'is_save', message: '1 か 0' },
  ]);
}
