import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

/**
 * Profiles through GraphQL and `/api` on the demo company: staff and colleague in 営業, devadmin in
 * 開発 (another department), admin (管理者). The demo company's profiles are removed first.
 */
let p: TestPlatform;
const token: Record<'admin' | 'staff' | 'colleague' | 'outsider', string> = {
  admin: '',
  staff: '',
  colleague: '',
  outsider: '',
};
const id: Record<'admin' | 'staff' | 'colleague' | 'outsider', number> = {
  admin: 0,
  staff: 0,
  colleague: 0,
  outsider: 0,
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);

beforeAll(async () => {
  p = await startTestPlatform();
  await sql(`delete from profile`); // the demo profiles are set aside: these tests count what they create
  const [{ id: sales }] = await sql(`select id from department where name = '営業'`);
  const [colleague] = await sql(
    `select id, login_id from employee where department_id = ? and status = 'ACTIVE' and role = 'GENERAL' and login_id <> 'staff' order by id limit 1`,
    [sales],
  );
  const logins = { admin: 'admin', staff: 'staff', colleague: colleague.login_id as string, outsider: 'devadmin' };
  for (const [who, login] of Object.entries(logins) as [keyof typeof logins, string][]) {
    token[who] = await loginToken(p.url, login);
    id[who] = (await sql(`select id from employee where login_id = ?`, [login]))[0].id;
  }
  const [out] = await sql(`select department_id from employee where id = ?`, [id.outsider]);
  expect(out.department_id).not.toBe(sales);
});
afterAll(async () => p?.close());

const FIELDS = `id employeeId name title address addressVisibility phone phoneVisibility skills languages workExperience education aboutMeHtml hobbies talents likeCount likedByMe commentCount canEdit version status departmentName`;
const CREATE = `mutation($i: ProfileInput!) { createProfile(input: $i) { ${FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $i: ProfileInput!) { updateProfile(id: $id, input: $i) { ${FIELDS} } }`;
const GET = `query($id: Int!) { profile(id: $id) { ${FIELDS} } }`;
const LIST = `query($q: String, $name: String, $title: String, $d: Int) { profiles(q: $q, name: $name, title: $title, departmentId: $d, limit: 200) { total items { id employeeId address phone } } }`;

async function ok(who: keyof typeof token, query: string, variables: Record<string, unknown> = {}) {
  const r = await gql(p.url, query, variables, { token: token[who] });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data;
}
const refused = async (who: keyof typeof token, query: string, variables: Record<string, unknown>) =>
  (await gql(p.url, query, variables, { token: token[who] })).body.errors?.[0];
const ensureProfile = async (who: keyof typeof token, input: Record<string, unknown> = {}) => {
  const mine = (await ok(who, `{ employeeProfile { id version } }`)).employeeProfile;
  if (mine) return (await ok(who, UPDATE, { id: mine.id, i: input })).updateProfile;
  return (await ok(who, CREATE, { i: input })).createProfile;
};

describe('profiles', () => {
  it('the owner creates one profile, blanks dropped and text trimmed; only they update it, from the version they read', async () => {
    const created = (
      await ok('staff', CREATE, {
        i: {
          title: ' 営業主任 ',
          skills: ['簿記2級', '  ', '', 'Python'],
          languages: ['英語', ''],
          hobbies: '釣り',
          aboutMe: { blocks: [{ type: 'paragraph', data: { text: 'よろしく<b>お願いします</b>' } }] },
        },
      })
    ).createProfile;
    expect(created).toMatchObject({
      employeeId: id.staff,
      title: '営業主任',
      skills: ['簿記2級', 'Python'],
      languages: ['英語'],
      hobbies: '釣り',
      canEdit: true,
      version: 1,
      status: 'ACTIVE',
    });
    expect(created.aboutMeHtml).toContain('<b>お願いします</b>');
    expect((await refused('staff', CREATE, { i: {} })).extensions).toMatchObject({
      code: 'CONFLICT',
      reason: 'PROFILE_EXISTS',
    });
    const other = await refused('colleague', UPDATE, { id: created.id, i: { title: '乗っ取り' } });
    expect(other).toMatchObject({
      message: 'プロフィールを編集できるのは本人だけです。',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await ok('colleague', GET, { id: created.id })).profile).toMatchObject({
      title: '営業主任',
      canEdit: false,
    });
    const updated = (await ok('staff', UPDATE, { id: created.id, i: { talents: '暗算', version: 1 } })).updateProfile;
    expect(updated).toMatchObject({ talents: '暗算', title: '営業主任', skills: ['簿記2級', 'Python'], version: 2 }); // fields left out are kept
    const stale = await refused('staff', UPDATE, { id: created.id, i: { talents: '上書き', version: 1 } });
    expect(stale.extensions).toMatchObject({ code: 'CONFLICT', reason: 'PROFILE_VERSION', currentVersion: 2 });
    expect((await ok('staff', UPDATE, { id: created.id, i: { hobbies: null } })).updateProfile.hobbies).toBe('');
  });

  it('refuses more than 10 entries, over-long text and a bad phone in one 400 naming each field; nothing is written', async () => {
    const mine = await ensureProfile('colleague', { title: '元の肩書き' });
    const r = await refused('colleague', UPDATE, {
      id: mine.id,
      i: { skills: Array.from({ length: 11 }, (_, i) => `スキル${i}`), title: 'あ'.repeat(101), phone: '03-1234-abcd' },
    });
    expect(r.extensions.code).toBe('BAD_USER_INPUT');
    expect(
      Object.fromEntries(r.extensions.fieldErrors.map((f: { field: string; message: string }) => [f.field, f.message])),
    ).toEqual({
      skills: 'スキルは10件までです。',
      title: '役職・肩書きは100文字以内で入力してください。',
      phone: '電話番号は数字、+、-、括弧、空白で入力してください。',
    });
    const after = (await ok('colleague', GET, { id: mine.id })).profile;
    expect(after).toMatchObject({ title: '元の肩書き', version: mine.version });
    // Ten entries (blank ones not counted) and full-width digits are fine.
    const ten = [...Array.from({ length: 10 }, (_, i) => `言語${i}`), ' '];
    expect(
      (await ok('colleague', UPDATE, { id: mine.id, i: { languages: ten, phone: '０３－１２３４－５６７８' } }))
        .updateProfile,
    ).toMatchObject({
      languages: ten.slice(0, 10),
      phone: '03-1234-5678',
    });
  });

  it('address and phone are seen only within the visibility their owner chose, in the detail, the list and /api; the search never looks in them', async () => {
    const mine = await ensureProfile('staff', {
      address: '東京都千代田区丸の内1-1',
      addressVisibility: 'DEPARTMENT',
      phone: '090-1111-2222',
      phoneVisibility: 'PRIVATE',
    });
    const seen = async (who: keyof typeof token) => {
      const detail = (await ok(who, GET, { id: mine.id })).profile;
      const listed = (await ok(who, LIST, {})).profiles.items.find((x: { id: number }) => x.id === mine.id);
      const rest = (await api(p.url, 'GET', `/profiles/${mine.id}`, { token: token[who] })).body;
      expect(listed).toMatchObject({ address: detail.address, phone: detail.phone });
      expect({ address: rest.address, phone: rest.phone }).toEqual({ address: detail.address, phone: detail.phone });
      return [detail.address, detail.phone];
    };
    expect(await seen('staff')).toEqual(['東京都千代田区丸の内1-1', '090-1111-2222']);
    expect(await seen('colleague')).toEqual(['東京都千代田区丸の内1-1', null]);
    expect(await seen('outsider')).toEqual([null, null]);
    expect(await seen('admin')).toEqual(['東京都千代田区丸の内1-1', '090-1111-2222']);
    expect((await ok('outsider', LIST, { q: '丸の内' })).profiles.total).toBe(0);
    expect((await ok('staff', LIST, { q: '090' })).profiles.total).toBe(0);
    await ok('staff', UPDATE, { id: mine.id, i: { addressVisibility: 'EVERYONE' } });
    expect(await seen('outsider')).toEqual(['東京都千代田区丸の内1-1', null]);
  });

  it('finds who knows what: one- and two-character words, any case and width, every word; with name, title and department filters', async () => {
    await ensureProfile('staff', { skills: ['簿記2級', 'Python'], title: '営業主任' });
    await ensureProfile('admin', { languages: ['中国語', '英語'], workExperience: ['上海支社 5年'], title: '部長' });
    const found = async (vars: Record<string, unknown>) =>
      (await ok('outsider', LIST, vars)).profiles.items
        .map((x: { employeeId: number }) => x.employeeId)
        .sort((a: number, b: number) => a - b);
    expect(await found({ q: '簿記' })).toEqual([id.staff]);
    expect(await found({ q: 'ＰＹＴＨＯＮ' })).toEqual([id.staff]);
    expect(await found({ q: '中' })).toEqual([id.admin]);
    expect(await found({ q: '中国語 上海' })).toEqual([id.admin]);
    expect(await found({ q: '中国語 簿記' })).toEqual([]);
    expect(await found({ q: '50%' })).toEqual([]); // LIKE's wildcards are text
    expect(await found({ title: '主任' })).toEqual([id.staff]);
    const [{ name }] = await sql(`select name from employee where id = ?`, [id.admin]);
    expect(await found({ name: name.slice(0, 2) })).toContain(id.admin);
    const [{ department_id: sales }] = await sql(`select department_id from employee where id = ?`, [id.staff]);
    expect(await found({ d: sales })).not.toContain(id.admin);
    expect(await found({ d: sales })).toContain(id.staff);
  });

  it('likes: each employee only their own, through GraphQL and the spec’s toggle; who liked is read from the master data', async () => {
    const target = await ensureProfile('staff');
    const like = `mutation($id: Int!, $on: Boolean!) { likeProfile(id: $id, liked: $on) { likeCount likedByMe } }`;
    expect((await ok('colleague', like, { id: target.id, on: true })).likeProfile).toMatchObject({ likedByMe: true });
    expect((await ok('colleague', like, { id: target.id, on: true })).likeProfile.likedByMe).toBe(true); // idempotent
    const toggled = await api(p.url, 'GET', `/profiles/${target.id}/toggle_like/${id.outsider}`, {
      token: token.outsider,
    });
    expect(toggled.status).toBe(200);
    expect(toggled.body.likes_employee_ids.split(',').map(Number)).toEqual([id.colleague, id.outsider]);
    const asOther = await api(p.url, 'GET', `/profiles/${target.id}/toggle_like/${id.colleague}`, {
      token: token.outsider,
    });
    expect(asOther.status).toBe(403);
    const likers = (
      await ok('staff', `query($id: Int!) { profileLikers(id: $id) { id name departmentName status email } }`, {
        id: target.id,
      })
    ).profileLikers;
    expect(likers.map((l: { id: number }) => l.id)).toEqual([id.outsider, id.colleague]);
    expect(likers[0]).toMatchObject({ status: 'ACTIVE' });
    // The likers come a page at a time (a popular profile may have thousands): the newest first.
    const firstOnly = await api(p.url, 'GET', `/profiles/${target.id}/likers?limit=1`, { token: token.staff });
    expect(firstOnly.body.map((l: { employee_id: number }) => l.employee_id)).toEqual([id.outsider]);
    const second = await api(p.url, 'GET', `/profiles/${target.id}/likers?limit=1&offset=1`, { token: token.staff });
    expect(second.body.map((l: { employee_id: number }) => l.employee_id)).toEqual([id.colleague]);
    expect((await api(p.url, 'GET', `/profiles/${target.id}/likers?limit=1000`, { token: token.staff })).status).toBe(
      400,
    );
    expect(
      (await api(p.url, 'GET', `/profiles/${target.id}/toggle_like/${id.outsider}`, { token: token.outsider })).body
        .likes_employee_ids,
    ).toBe(String(id.colleague));
    const unknown = await api(p.url, 'GET', `/profiles/999999/toggle_like/${id.outsider}`, { token: token.outsider });
    expect(unknown).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', error: 'プロフィールが見つかりません。' },
    });
    const events = await sql(
      `select count(*)::int as n from (select type from outbox_event union all select type from outbox_sent) x where type = 'profile.like_changed'`,
    );
    expect(events[0].n).toBe(3);
  });

  it('comments and replies: anyone signed in writes; the author or the profile’s owner deletes; /api takes no attachment and no other employee id', async () => {
    const target = await ensureProfile('staff');
    const add = `mutation($i: ProfileCommentInput!) { addProfileComment(input: $i) { id parentId content canDelete } }`;
    const first = (await ok('outsider', add, { i: { profileId: target.id, content: ' はじめまして ' } }))
      .addProfileComment;
    const reply = (await ok('staff', add, { i: { profileId: target.id, content: 'よろしく', parentId: first.id } }))
      .addProfileComment;
    const replyToReply = (
      await ok('colleague', add, { i: { profileId: target.id, content: '横から', parentId: reply.id } })
    ).addProfileComment;
    expect(replyToReply.parentId).toBe(first.id);
    expect((await refused('colleague', add, { i: { profileId: target.id, content: '   ' } })).message).toBe(
      'コメントを入力してください。',
    );
    const rest = await api(p.url, 'GET', `/profile_comments/${target.id}`, { token: token.colleague });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-total-count')).toBe('3');
    expect(rest.body[0]).toMatchObject({
      comment_id: first.id,
      profile_id: target.id,
      employee_id: id.outsider,
      content: 'はじめまして',
      attachment: null,
      can_delete: false,
    });
    expect(rest.body[0].replies.map((r: { comment_id: number }) => r.comment_id)).toEqual([reply.id, replyToReply.id]);
    const withFile = await api(p.url, 'POST', '/profile_comments', {
      token: token.colleague,
      body: { profile_id: target.id, content: 'x', attachment: 'data:text/plain;base64,eA==' },
    });
    expect(withFile.status).toBe(400);
    const asOther = await api(p.url, 'POST', '/profile_comments', {
      token: token.colleague,
      body: { profile_id: target.id, employee_id: id.staff, content: 'なりすまし' },
    });
    expect(asOther.status).toBe(403);
    const posted = await api(p.url, 'POST', '/profile_comments', {
      token: token.colleague,
      body: { profile_id: target.id, employee_id: id.colleague, content: 'REST から', parent_comment_id: null },
    });
    expect(posted).toMatchObject({ status: 201, body: { employee_id: id.colleague, content: 'REST から' } });
    const del = `mutation($id: Int!) { deleteProfileComment(id: $id) }`;
    expect((await refused('colleague', del, { id: first.id })).extensions.code).toBe('FORBIDDEN');
    expect(await ok('staff', del, { id: first.id })).toEqual({ deleteProfileComment: true }); // the owner deletes, replies go with it
    expect(
      (await api(p.url, 'DELETE', `/profile_comments/${posted.body.comment_id}`, { token: token.colleague })).status,
    ).toBe(200);
    expect((await sql(`select count(*)::int as n from profile_comment where profile_id = ?`, [target.id]))[0].n).toBe(
      0,
    );
    expect((await api(p.url, 'GET', `/profile_comments/999999`, { token: token.colleague })).status).toBe(404);
  });

  it("a comment's author edits its text (marked edited, one event); no one else, not even the profile's owner; blank is refused", async () => {
    const target = await ensureProfile('staff');
    const add = `mutation($i: ProfileCommentInput!) { addProfileComment(input: $i) { id } }`;
    const edit = `mutation($id: Int!, $c: String!) { editProfileComment(id: $id, content: $c) { id content editedAt canEdit } }`;
    const c = (await ok('colleague', add, { i: { profileId: target.id, content: 'Pyhton 教えてください' } }))
      .addProfileComment;
    const events = async () =>
      (
        await sql(
          `select count(*)::int as n from (select id from outbox_event where type = 'profile.comment.edited' union all select id from outbox_sent where type = 'profile.comment.edited') e`,
        )
      )[0].n as number;
    const before = await events();
    const edited = (await ok('colleague', edit, { id: c.id, c: 'Python 教えてください' })).editProfileComment;
    expect(edited).toMatchObject({ content: 'Python 教えてください', canEdit: true });
    expect(Date.parse(edited.editedAt)).toBeGreaterThan(0);
    expect(await events()).toBe(before + 1);
    await ok('colleague', edit, { id: c.id, c: 'Python 教えてください' }); // the same text: nothing new
    expect(await events()).toBe(before + 1);

    expect((await refused('staff', edit, { id: c.id, c: '書き換え' })).message).toBe(
      'コメントを編集できるのはコメントした本人だけです。',
    );
    expect((await refused('colleague', edit, { id: c.id, c: '  ' })).message).toBe('コメントを入力してください。');
    expect((await refused('colleague', edit, { id: 999999, c: 'x' })).extensions.code).toBe('NOT_FOUND');
    const rest = await api(p.url, 'PUT', `/profile_comments/${c.id}`, { token: token.staff, body: { content: 'x' } });
    expect(rest.status).toBe(403);
    const mine = await api(p.url, 'PUT', `/profile_comments/${c.id}`, {
      token: token.colleague,
      body: { content: 'Python と SQL を教えてください' },
    });
    expect(mine).toMatchObject({ status: 200, body: { comment_id: c.id, can_edit: true } });
    const read = await api(p.url, 'GET', `/profile_comments/${target.id}`, { token: token.staff });
    expect(read.body.find((x: { comment_id: number }) => x.comment_id === c.id)).toMatchObject({
      content: 'Python と SQL を教えてください',
      can_edit: false,
    });
  });

  it('/api: list fields as JSON text or lists, about me as sanitized HTML; only one’s own profile is written; a retired employee’s is read-only', async () => {
    await sql(`delete from profile where employee_id = ?`, [id.outsider]);
    const created = await api(p.url, 'POST', '/profiles', {
      token: token.outsider,
      body: {
        employee_id: id.outsider,
        skills: '["TypeScript","","PostgreSQL"]',
        languages: ['日本語'],
        about_me: '<p>開発です<script>alert(1)</script></p>',
        title: 'エンジニア',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      employee_id: id.outsider,
      skills: '["TypeScript","PostgreSQL"]',
      languages: '["日本語"]',
      title: 'エンジニア',
      likes_employee_ids: '',
    });
    expect(created.body.about_me).toContain('開発です');
    expect(created.body.about_me).not.toContain('script');
    const badJson = await api(p.url, 'PUT', `/profiles/${created.body.id}`, {
      token: token.outsider,
      body: { skills: '["閉じていない' },
    });
    expect(badJson).toMatchObject({
      status: 400,
      body: { fieldErrors: [{ field: 'skills', message: 'スキルは JSON の文字列リストで入力してください。' }] },
    });
    // PUT replaces: what is left out is cleared, except the visibilities (never widened by leaving them out).
    await api(p.url, 'PUT', `/profiles/${created.body.id}`, {
      token: token.outsider,
      body: { address_visibility: 'private', title: 'エンジニア', skills: ['TypeScript'] },
    });
    const replaced = await api(p.url, 'PUT', `/profiles/${created.body.id}`, {
      token: token.outsider,
      body: { title: 'エンジニア' },
    });
    expect(replaced.body).toMatchObject({
      title: 'エンジニア',
      skills: '[]',
      languages: '[]',
      about_me: '',
      address_visibility: 'PRIVATE',
    });
    const noBody = await api(p.url, 'PUT', `/profiles/${created.body.id}`, { token: token.outsider });
    expect(noBody.status).toBe(400);
    expect(
      (await api(p.url, 'PUT', `/profiles/${created.body.id}`, { token: token.colleague, body: { title: 'x' } }))
        .status,
    ).toBe(403);
    expect(
      (await api(p.url, 'POST', '/profiles', { token: token.colleague, body: { employee_id: id.outsider } })).status,
    ).toBe(403);
    const byEmployee = await api(p.url, 'GET', `/profiles/employee/${id.outsider}`, { token: token.colleague });
    expect(byEmployee.body.id).toBe(created.body.id);
    expect((await api(p.url, 'GET', `/profiles/abc`, { token: token.colleague })).status).toBe(400);
    expect((await api(p.url, 'GET', `/profiles/999999`, { token: token.colleague })).body).toMatchObject({
      code: 'NOT_FOUND',
      error: 'プロフィールが見つかりません。',
    });
    await sql(`update employee set status = 'RETIRED' where id = ?`, [id.outsider]);
    try {
      const retired = await api(p.url, 'PUT', `/profiles/${created.body.id}`, {
        token: token.outsider,
        body: { title: '退職後' },
      });
      expect([401, 403]).toContain(retired.status); // a retired employee's session ends; were it kept, the service refuses
      expect((await ok('colleague', GET, { id: created.body.id })).profile).toMatchObject({
        status: 'RETIRED',
        canEdit: false,
        title: 'エンジニア',
      });
    } finally {
      await sql(`update employee set status = 'ACTIVE' where id = ?`, [id.outsider]);
    }
  });
});
