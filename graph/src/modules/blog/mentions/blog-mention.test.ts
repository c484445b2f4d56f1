import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { fireDueTransitions } from '../blog-post.schedule.js';
import { ask, bell } from '../../notifications/notification.test-support.js';

/** @mentions: who may be mentioned (the post's readers), who is told and when (once each), and the candidates a writer is offered. */
let w: BlogWorld;
let names: { staff: string; colleague: string; admin: string; outsider: string; outsiderId: number };
beforeAll(async () => {
  w = await blogWorld();
  // A login ID in romaji the kana tests can spell: 佐藤（さとう）太郎.
  await w.sql(`update employee set login_id = 'taro.satou', email = null where id = ?`, [w.id.colleague]);
  const rows = await w.sql(
    `select id, login_id, name from employee where id = any(?::int[]) or login_id = 'devadmin'`,
    [`{${w.id.staff},${w.id.colleague},${w.id.admin}}`],
  );
  const of = (id: number) => rows.find((r) => r.id === id).name as string;
  const outsider = rows.find((r) => r.login_id === 'devadmin');
  names = {
    staff: of(w.id.staff),
    colleague: of(w.id.colleague),
    admin: of(w.id.admin),
    outsider: outsider.name,
    outsiderId: outsider.id,
  };
});
afterAll(async () => w?.p.close());

const mention = (id: number, name: string) => `<a href="/profile/${id}">@${name}</a>`;
const body = (text: string) => ({ blocks: [{ type: 'paragraph', data: { text } }] });
const mentionsOf = async (token: string, postId: number) =>
  (await bell(w, token)).items.filter((n) => n.postId === postId && n.kind === 'MENTION');
const told = async (postId: number) =>
  (
    await w.sql(`select recipient_id from notification where post_id = ? and kind = 'MENTION' order by recipient_id`, [
      postId,
    ])
  ).map((r) => r.recipient_id as number);
const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id version mentions { id name } contentHtml } }`;

describe('mentions in a post', () => {
  it('a published post tells each reader it mentions, once; the link opens the profile in the app', async () => {
    const title = `メンション ${Math.random()}`;
    const post = await w.post(w.token.staff, {
      title,
      categoryId: w.cat.news,
      content: body(`${mention(w.id.colleague, names.colleague)} さん、確認お願いします`),
    });
    const read = await ask<{ blogPost: { mentions: unknown[]; contentHtml: string } }>(
      w,
      w.token.colleague,
      `query($id: Int!) { blogPost(id: $id) { mentions { id name } contentHtml } }`,
      { id: post.id },
    );
    expect(read.blogPost.mentions).toEqual([{ id: w.id.colleague, name: names.colleague }]);
    expect(read.blogPost.contentHtml).toContain(`<a href="/profile/${w.id.colleague}">@${names.colleague}</a>`);
    const items = await mentionsOf(w.token.colleague, post.id);
    expect(items).toMatchObject([{ kind: 'MENTION', postTitle: title, actor: { id: w.id.staff }, read: false }]);
    // An edit that adds the 管理者 tells only them; the colleague is not told again.
    await ask(w, w.token.staff, UPDATE, {
      id: post.id,
      i: {
        version: post.version,
        title,
        categoryId: w.cat.news,
        content: body(`${mention(w.id.colleague, names.colleague)} ${mention(w.id.admin, names.admin)} 追記`),
      },
    });
    expect(await told(post.id)).toEqual([w.id.colleague, w.id.admin].sort((a, b) => a - b));
    const rest = await api(w.p.url, 'GET', `/blogs/${post.id}`, { token: w.token.colleague });
    expect(rest.body.mentions).toEqual([
      { employee_id: w.id.colleague, name: names.colleague },
      { employee_id: w.id.admin, name: names.admin },
    ]);
  });

  it('refuses to mention someone who may not read the post, by name, in both channels, and saves and tells nothing', async () => {
    const title = `読めない人へのメンション ${Math.random()}`;
    const g = await gql(
      w.p.url,
      `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id } }`,
      { i: { title, categoryId: w.cat.news, content: body(`${mention(names.outsiderId, names.outsider)} さん`) } },
      { token: w.token.staff },
    );
    expect(g.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'MENTION_NOT_READER' });
    expect(g.body.errors[0].message).toBe(
      `${names.outsider}さんはこのカテゴリのメンバーではなく投稿を読めないため、メンションできません。`,
    );
    const r = await api(w.p.url, 'POST', '/blogs', {
      token: w.token.staff,
      body: { title, category_id: w.cat.news, content: `<p>${mention(names.outsiderId, names.outsider)}</p>` },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'MENTION_NOT_READER' });
    const unknown = await api(w.p.url, 'POST', '/blogs', {
      token: w.token.staff,
      body: { title, category_id: w.cat.news, content: `<p>${mention(99999999, '誰か')}</p>` },
    });
    expect(unknown.body).toMatchObject({
      reason: 'MENTION_UNKNOWN',
      error: 'メンションした社員（ID 99999999）が見つかりません。',
    });
    expect(await w.sql(`select id from blog_post where title = ?`, [title])).toEqual([]);
    expect(
      await w.sql(`select id from notification where recipient_id = ? and kind = 'MENTION'`, [names.outsiderId]),
    ).toEqual([]);
  });

  it('a link to a profile without @ is a link, not a mention', async () => {
    const post = await w.post(w.token.staff, {
      title: `プロフィールへのリンク ${Math.random()}`,
      categoryId: w.cat.news,
      content: body(`<a href="/profile/${names.outsiderId}">開発部の紹介</a>`),
    });
    expect(await told(post.id)).toEqual([]);
  });

  it('a scheduled post tells nobody until the scheduler publishes it, then each once', async () => {
    const post = await w.post(w.token.staff, {
      title: `予約投稿のメンション ${Math.random()}`,
      categoryId: w.cat.news,
      publishStart: w.day(1),
      content: body(`${mention(w.id.colleague, names.colleague)} 明日から`),
    });
    expect(await told(post.id)).toEqual([]);
    await w.sql(`update blog_post set publish_start = ?::date where id = ?`, [w.today, post.id]);
    await w.sql(
      `insert into blog_scheduler (id, fired_day) values (true, ?::date) on conflict (id) do update set fired_day = excluded.fired_day`,
      [w.day(-1)],
    );
    await fireDueTransitions(w.p.db.orm.em.fork(), w.today);
    expect(await told(post.id)).toEqual([w.id.colleague]);
    expect(await mentionsOf(w.token.colleague, post.id)).toHaveLength(1);
  });
});

describe('mentions in a comment', () => {
  const ADD = `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id content mentions { id name } } }`;

  it('tells the mentioned (a mentioned post author hears of it once, by the mention); the text must name them', async () => {
    const post = await w.post(w.token.colleague, {
      title: `コメントのメンション ${Math.random()}`,
      categoryId: w.cat.news,
    });
    const added = await ask<{ addBlogComment: { id: number; mentions: unknown[] } }>(w, w.token.staff, ADD, {
      i: {
        postId: post.id,
        content: `@${names.colleague} @${names.admin} 見てください`,
        mentionIds: [w.id.colleague, w.id.admin],
      },
    });
    expect(added.addBlogComment.mentions).toEqual([
      { id: w.id.colleague, name: names.colleague },
      { id: w.id.admin, name: names.admin },
    ]);
    const colleagueItems = (await bell(w, w.token.colleague)).items.filter((n) => n.postId === post.id);
    expect(colleagueItems.map((n) => n.kind)).toEqual(['MENTION']);
    expect(colleagueItems[0]).toMatchObject({
      commentId: added.addBlogComment.id,
      excerpt: expect.stringContaining('見てください'),
    });
    expect((await mentionsOf(w.token.admin, post.id)).length).toBe(1);

    const r = await api(w.p.url, 'POST', '/comments', {
      token: w.token.staff,
      body: { blog_id: post.id, content: 'お名前を書き忘れました', mention_ids: [w.id.admin] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      reason: 'MENTION_NOT_IN_TEXT',
      error: `本文に「@${names.admin}」がありません（メンションする人は本文に @氏名 で書いてください）。`,
    });
    const outsider = await api(w.p.url, 'POST', '/comments', {
      token: w.token.staff,
      body: { blog_id: post.id, content: `@${names.outsider} さん`, mention_ids: [names.outsiderId] },
    });
    expect(outsider.body).toMatchObject({ reason: 'MENTION_NOT_READER' });
    const bad = await api(w.p.url, 'POST', '/comments', {
      token: w.token.staff,
      body: { blog_id: post.id, content: 'x', mention_ids: '1,2' },
    });
    expect(bad.body).toMatchObject({ code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'mention_ids' }] });
    expect(await w.sql(`select count(*)::int as n from blog_comment where post_id = ?`, [post.id])).toEqual([{ n: 1 }]);
  });

  it('an edit keeps the mentions its text still names, and tells only those it adds', async () => {
    const post = await w.post(w.token.staff, { title: `編集とメンション ${Math.random()}`, categoryId: w.cat.news });
    const c = await api(w.p.url, 'POST', '/comments', {
      token: w.token.staff,
      body: { blog_id: post.id, content: `@${names.colleague} どうですか`, mention_ids: [w.id.colleague] },
    });
    expect(c.status).toBe(201);
    expect(c.body.mentions).toEqual([{ employee_id: w.id.colleague, name: names.colleague }]);
    const kept = await api(w.p.url, 'PUT', `/comments/${c.body.comment_id}`, {
      token: w.token.staff,
      body: { content: `@${names.colleague} どうですか（追記）` },
    });
    expect(kept.body.mentions).toEqual([{ employee_id: w.id.colleague, name: names.colleague }]);
    const added = await api(w.p.url, 'PUT', `/comments/${c.body.comment_id}`, {
      token: w.token.staff,
      body: { content: `@${names.colleague} @${names.admin} どうですか`, mention_ids: [w.id.colleague, w.id.admin] },
    });
    expect(added.body.mentions.map((m: { employee_id: number }) => m.employee_id)).toEqual([
      w.id.colleague,
      w.id.admin,
    ]);
    expect(await told(post.id)).toEqual([w.id.colleague, w.id.admin].sort((a, b) => a - b));
    const dropped = await api(w.p.url, 'PUT', `/comments/${c.body.comment_id}`, {
      token: w.token.staff,
      body: { content: `@${names.admin} だけに` },
    });
    expect(dropped.body.mentions).toEqual([{ employee_id: w.id.admin, name: names.admin }]);
    // Dropped and written again: told once all the same.
    await api(w.p.url, 'PUT', `/comments/${c.body.comment_id}`, {
      token: w.token.staff,
      body: { content: `@${names.colleague} @${names.admin} もう一度`, mention_ids: [w.id.colleague, w.id.admin] },
    });
    expect(await told(post.id)).toEqual([w.id.colleague, w.id.admin].sort((a, b) => a - b));
  });
});

describe('mention candidates', () => {
  const CANDIDATES = `query($q: String, $c: Int, $p: Int) { blogMentionCandidates(query: $q, categoryId: $c, postId: $p) { id name departmentName } }`;
  const found = async (token: string, vars: Record<string, unknown>) =>
    (await ask<{ blogMentionCandidates: { id: number }[] }>(w, token, CANDIDATES, vars)).blogMentionCandidates.map(
      (c) => c.id,
    );

  it('finds the readers of a category by kanji, kana and romaji however the long vowels are spelled, never the writer or an outsider', async () => {
    const surname = names.colleague.split(/[\s\u3000]/)[0]!;
    for (const q of [surname, 'さとう', 'サトー', 'satoh', 'sato', 'たろうさとう', 'さとうたろう'])
      expect(await found(w.token.staff, { q, c: w.cat.news }), q).toContain(w.id.colleague);
    expect(await found(w.token.staff, { q: 'すずき', c: w.cat.news })).not.toContain(w.id.colleague);
    const everyone = await found(w.token.staff, { c: w.cat.news });
    expect(everyone).toContain(w.id.admin);
    expect(everyone).not.toContain(w.id.staff);
    expect(everyone).not.toContain(names.outsiderId);
    // 役員会: the staff member neither reads nor posts there; the category's existence stays private.
    const hidden = await gql(w.p.url, CANDIDATES, { c: w.cat.board }, { token: w.token.staff });
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const neither = await gql(w.p.url, CANDIDATES, { q: 'a' }, { token: w.token.staff });
    expect(neither.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('for a comment: the post’s readers and its author; NOT_FOUND for a post one may not read; the same over /api', async () => {
    const post = await w.post(w.token.admin, { title: `候補 ${Math.random()}`, categoryId: w.cat.notice });
    expect(await found(w.token.staff, { p: post.id })).toEqual([w.id.admin]);
    const outsider = await gql(w.p.url, CANDIDATES, { p: post.id }, { token: w.token.outsider });
    expect(outsider.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const r = await api(w.p.url, 'GET', `/blog_mention_candidates?blog_id=${post.id}`, { token: w.token.staff });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ employee_id: w.id.admin, name: names.admin, department_name: expect.anything() }]);
    const bad = await api(w.p.url, 'GET', `/blog_mention_candidates?category_id=${w.cat.news}&limit=99`, {
      token: w.token.staff,
    });
    expect(bad.status).toBe(400);
  });
});
