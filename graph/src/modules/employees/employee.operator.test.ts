/**
 * A production install from an empty database, as an operator does it: no demo data, the first 管理者
 * made with `npm run admin -- create` (the compiled CLI, as a child process), whose one-time
 * password lets the session do nothing but replace it; `reset-password` for a forgotten one.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql } from '../../test/http.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const SECRET = 's'.repeat(40);
let p: TestPlatform;

beforeAll(async () => {
  p = await startTestPlatform({ NODE_ENV: 'production', SESSION_SECRET: SECRET });
});
afterAll(async () => p?.close());

function admin(args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(root, 'dist/bin/admin.js'), ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          SESSION_SECRET: SECRET,
          DATABASE_URL: p.db.url,
          LOG_LEVEL: 'warn',
        },
      },
      (error, out, err) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out, err }),
    );
    child.stdin!.end(stdin ?? '');
  });
}

const login = (loginId: string, password: string) => api(p.url, 'POST', '/auth/login', { body: { loginId, password } });
const passwordOf = (out: string) => /初回パスワード（この1回だけ表示します）: (\S+)/.exec(out)?.[1];

describe('the first administrator of a production install', () => {
  let oneTime: string;
  let token: string;

  it('an empty production database has no one; `create` makes a 管理者 and prints a one-time password once', async () => {
    expect((await p.db.orm.em.fork().execute(`select count(*)::int as n from employee`))[0].n).toBe(0);
    const r = await admin([
      'create',
      '--login',
      'it-admin',
      '--name',
      '情報 太郎',
      '--email',
      'it-admin@example.co.jp',
    ]);
    expect(r, r.err).toMatchObject({ code: 0 });
    expect(r.out).toContain('管理者「情報 太郎」を作成しました（ログインID: it-admin）');
    oneTime = passwordOf(r.out)!;
    expect(oneTime).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const again = await admin(['create', '--login', 'IT-Admin', '--name', '別人', '--email', 'other@example.co.jp']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('このログインIDはすでに使われています。');
    const bad = await admin(['create', '--login', 'x', '--name', ' ', '--email', 'not-mail']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--login: .*\n/);
    expect((await admin(['create', '--login', 'y'])).code).toBe(64);
  });

  it('the one-time password signs in to a session that may only ask who it is, change the password or sign out', async () => {
    const r = await login('it-admin', oneTime);
    expect(r.status).toBe(200);
    token = r.body.token;
    const me = await gql(p.url, `{ me { name role mustChangePassword } }`, {}, { token });
    expect(me.body.data.me).toEqual({ name: '情報 太郎', role: 'ADMIN', mustChangePassword: true });
    const list = await gql(p.url, `{ employees { total } }`, {}, { token });
    expect(list.body.errors[0]).toMatchObject({
      extensions: { code: 'FORBIDDEN', reason: 'PASSWORD_CHANGE_REQUIRED' },
    });
    const rest = await api(p.url, 'GET', '/employees', { token });
    expect(rest.status).toBe(403);
    expect(rest.body.reason).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await api(p.url, 'GET', '/auth/me', { token })).body.must_change_password).toBe(true);
  });

  it('changing it checks the current one and the rules, ends every session and starts a new one', async () => {
    const change = (currentPassword: string, newPassword: string) =>
      gql(
        p.url,
        `mutation($i: ChangePasswordInput!) { changeOwnPassword(input: $i) { token employee { id } } }`,
        { i: { currentPassword, newPassword } },
        { token },
      );
    expect((await change('wrong-password', 'a-new-secret-2026')).body.errors[0]).toMatchObject({
      message: '今のパスワードが正しくありません。',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await change(oneTime, oneTime)).body.errors[0].message).toBe(
      '新しいパスワードは今のパスワードと別のものにしてください。',
    );
    expect((await change(oneTime, 'short')).body.errors[0].extensions.fieldErrors).toEqual([
      { field: 'newPassword', message: 'パスワードは10文字以上にしてください。' },
    ]);
    const ok = await change(oneTime, 'a-new-secret-2026');
    expect(ok.body.errors).toBeUndefined();
    const fresh = ok.body.data.changeOwnPassword.token as string;
    expect((await api(p.url, 'GET', '/auth/me', { token })).status).toBe(401);
    expect((await api(p.url, 'GET', '/employees', { token: fresh })).status).toBe(200);
    expect(
      (await gql(p.url, `{ me { mustChangePassword } }`, {}, { token: fresh })).body.data.me.mustChangePassword,
    ).toBe(false);
    expect((await login('it-admin', oneTime)).status).toBe(401);
    token = fresh;
  });

  it('`reset-password` sets a one-time password (from stdin here), ends the sessions; unknown logins are refused', async () => {
    const r = await admin(['reset-password', 'it-admin', '--password-stdin'], 'temporary-pass-123\n');
    expect(r, r.err).toMatchObject({ code: 0 });
    expect(r.out).not.toContain('temporary-pass-123');
    expect((await api(p.url, 'GET', '/auth/me', { token })).status).toBe(401);
    const again = await login('it-admin', 'temporary-pass-123');
    expect((await api(p.url, 'GET', '/auth/me', { token: again.body.token })).body.must_change_password).toBe(true);
    // REST: POST /auth/password replaces it.
    const changed = await api(p.url, 'POST', '/auth/password', {
      token: again.body.token,
      body: { current_password: 'temporary-pass-123', new_password: 'another-secret-2026' },
    });
    expect(changed.status).toBe(200);
    expect((await api(p.url, 'GET', '/employees', { token: changed.body.token })).status).toBe(200);
    const unknown = await admin(['reset-password', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('在籍中の社員にログインID「nobody」はいません。');
  });
});
