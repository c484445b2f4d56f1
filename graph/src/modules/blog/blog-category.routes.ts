import type { Router } from 'express';
import { requireUser } from '../../platform/authz.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { BLOG_ADMIN_ROLES } from './blog.enums.js';
import { CATEGORY_FIELDS as F } from './blog-category.fields.js';
import { toApiCategory } from './blog-category.service.js';
import type { BlogCategoryView } from './blog-category.types.js';

/** The spec's body (category_name, color, permissions, employees, departments; lists or JSON text) → the service's input. */
const category: RestResource<BlogCategoryView> = {
  toApi: toApiCategory,
  guard: (ctx) => requireUser(ctx, BLOG_ADMIN_ROLES),
  body: bodyTable({
    name: F.name.body,
    color: F.color.body,
    permissions: F.permissions.body,
    employeeIds: F.employeeIds.body,
    departmentIds: F.departmentIds.body,
    version: 'version',
  }),
};

/** GET/POST /blog_category, GET/PUT /blog_category/{id}. */
export function blogCategoryRoutes(r: Router): void {
  r.get(
    '/blog_category',
    handle(async (ctx) => (await ctx.services.blog.categories.list(ctx)).map(toApiCategory)),
  );
  r.get(
    '/blog_category/:id',
    handle(async (ctx, req) => toApiCategory(await ctx.services.blog.categories.get(ctx, Number(req.params.id)))),
  );
  r.post(
    '/blog_category',
    writeRoute(category, (ctx, input) => ctx.services.blog.categories.create(ctx, input), 201),
  );
  r.put(
    '/blog_category/:id',
    writeRoute(category, (ctx, input, req) => ctx.services.blog.categories.update(ctx, Number(req.params.id), input)),
  );
}
