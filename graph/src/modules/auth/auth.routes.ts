import type { Router } from 'express';
import { bodyTable, handle } from '../../platform/rest.js';
import { unauthenticated } from '../../platform/errors.js';
import { toApiEmployee } from '../employees/employee.service.js';

/** The Google sign-in body: the ID token comes as `token` (the service calls it the credential). */
const googleBody = bodyTable({ credential: 'token', rememberMe: 'rememberMe' });
const passwordBody = bodyTable({ currentPassword: 'current_password', newPassword: 'new_password' });

export function authRoutes(r: Router): void {
  r.post(
    '/auth/login',
    handle(async (ctx, req) => {
      const { loginId, password, rememberMe } = req.body ?? {};
      const result = await ctx.services.auth.login(ctx, { loginId, password, rememberMe: rememberMe === true });
      return {
        employee: toApiEmployee(result.employee),
        token: result.token,
        expires_at: result.expiresAt.toISOString(),
      };
    }),
  );
  r.post(
    '/auth/google',
    handle(
      async (ctx, req) => {
        const { credential, rememberMe } = await googleBody.read(ctx, req.body ?? {});
        const result = await ctx.services.auth.loginWithGoogle(ctx, credential as string, rememberMe === true);
        return {
          user: toApiEmployee(result.employee),
          employee: toApiEmployee(result.employee),
          token: result.token,
          expires_at: result.expiresAt.toISOString(),
        };
      },
      { body: googleBody },
    ),
  );
  r.post(
    '/auth/logout',
    handle(async (ctx) => ({ ok: await ctx.services.auth.logout(ctx) })),
  );
  r.get(
    '/auth/me',
    handle(async (ctx) => {
      if (!ctx.user) throw unauthenticated();
      const employee = await ctx.services.employees.getFor(ctx.em, ctx.user, ctx.user.id);
      return { employee: toApiEmployee(employee), must_change_password: ctx.user.mustChangePassword };
    }),
  );
  r.post(
    '/auth/password',
    handle(
      async (ctx, req) => {
        const { currentPassword, newPassword } = await passwordBody.read(ctx, req.body ?? {});
        const result = await ctx.services.auth.changeOwnPassword(ctx, { currentPassword, newPassword });
        return {
          employee: toApiEmployee(result.employee),
          token: result.token,
          expires_at: result.expiresAt.toISOString(),
        };
      },
      { body: passwordBody },
    ),
  );
}
