import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../../test/http.js';
import { defaultFilesRoot, LocalFileStorage } from '../../../lib/files/index.js';
import { png } from '../../../lib/files/test-files.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';

let w: BlogWorld;
const posts: Record<string, number> = {};
beforeAll(async () => {
  w = await blogWorld();
  posts.open = (
    await w.post(w.token.staff, { title: 'コメント歓迎', categoryId: w.cat.news, publishStart: w.day(-1) })
  ).id;
  posts.closed = (
    await w.post(w.token.staff, {
      title: 'コメントなし',
      categoryId: w.cat.news,
      publishStart: w.day(-1),
      allowComments: false,
    })
  ).id;
  posts.board = (
    await w.post(w.token.admin, { title: '役員だけ', categoryId: w.cat.board, publishStart: w.day(-1) })
  ).id;
});
afterAll(async () => w?.p.close());

const LIST = `query($id: Int!) { blogComments(postId: $id, limit: 100) { items { id postId parentId content canDelete replyCount author { id name departmentName } attachment { name url } replies { id parentId content canDelete author { name } } } } }`;
const ADD = `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id parentId content canDelete author { id name } } }`;
const DELETE = `mutation($id: Int!) { deleteBlogComment(id: $id) }`;
const add = (token: string, i: Record<string, unknown>) => gql(w.p.url, ADD, { i }, { token });
const list = async (token: string, id: number) => {
  const r = await gql(w.p.url, LIST, { id }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.blogComments.items;
};
const added = async (token: string, i: Record<string, unknown>) => {
  const r = await add(token, i);
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.addBlogComment as { id: number; parentId: number | null };
};
const count = async (postId: number) =>
  (await w.sql(`select count(*)::int as n from blog_comment where post_id = ?`, [postId]))[0].n as number;
const events = async (type: string, postId: number) =>
  (
    await w.sql(
      `select payload from outbox_event where type = ? and aggregate_id = ? union all select payload from outbox_sent where type = ? and aggregate_id = ?`,
      [type, String(postId), type, String(postId)],
    )
  ).length;
const storedFiles = async () =>
  (
    await readdir(defaultFilesRoot(w.p.config.dataDir), { recursive: true, withFileTypes: true }).catch(() => [])
  ).filter((f) => f.isFile()).length;
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('blog comments', () => {
  it('comments and replies list oldest first with their replies; a reply to a reply attaches to the top-level comment; commentCount counts both', async () => {
    const first = await added(w.token.colleague, { postId: posts.open, content: '  最初のコメント  ' });
    const second = await added(w.token.admin, { postId: posts.open, content: '二つ目' });
    const reply = await added(w.token.staff, { postId: posts.open, content: '返信です', parentId: first.id });
    const replyToReply = await added(w.token.admin, {
      postId: posts.open,
      content: '返信への返信',
      parentId: reply.id,
    });
    expect(replyToReply.parentId).toBe(first.id);
    const thread = await list(w.token.colleague, posts.open);
    expect(thread.map((c: { id: number }) => c.id)).toEqual([first.id, second.id]);
    expect(thread[0]).toMatchObject({
      content: '最初のコメント',
      parentId: null,
      canDelete: true,
      author: { id: w.id.colleague },
    });
    expect(thread[0].replies.map((c: { id: number }) => c.id)).toEqual([reply.id, replyToReply.id]);
    expect(thread[1]).toMatchObject({ canDelete: false, replies: [] });
    const post = await gql(
      w.p.url,
      `query($id: Int!) { blogPost(id: $id) { commentCount } }`,
      { id: posts.open },
      { token: w.token.colleague },
    );
    expect(post.body.data.blogPost.commentCount).toBe(4);
    expect(await events('blog.comment.added', posts.open)).toBe(4);
  });

  it('blank comments and replies are refused with their Japanese messages; a post without comments refuses them', async () => {
    const before = await count(posts.open);
    const blank = await add(w.token.colleague, { postId: posts.open, content: ' \n ' });
    expect(blank.body.errors[0]).toMatchObject({
      message: 'コメントを入力してください。',
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'content' }] },
    });
    const [top] = await list(w.token.colleague, posts.open);
    const blankReply = await add(w.token.colleague, { postId: posts.open, content: '', parentId: top.id });
    expect(blankReply.body.errors[0]).toMatchObject({
      message: '返信を入力してください。',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const long = await add(w.token.colleague, { postId: posts.open, content: 'あ'.repeat(2001) });
    expect(long.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // A reply names a comment of the same post.
    const board = await added(w.token.admin, { postId: posts.board, content: '別の投稿のコメント' });
    const stray = await add(w.token.admin, { postId: posts.open, content: '迷子の返信', parentId: board.id });
    expect(stray.body.errors[0]).toMatchObject({
      message: '返信先のコメントが見つかりません。',
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'parentId' }] },
    });
    await gql(w.p.url, DELETE, { id: board.id }, { token: w.token.admin });
    const closed = await add(w.token.colleague, { postId: posts.closed, content: 'どうですか' });
    expect(closed.body.errors[0]).toMatchObject({
      message: 'この投稿はコメントを受け付けていません。',
      extensions: { code: 'FORBIDDEN' },
    });
    const rest = await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: { blog_id: posts.closed, user_id: w.id.colleague, content: 'どうですか' },
    });
    expect(rest.status).toBe(403);
    expect(await count(posts.open)).toBe(before);
    expect(await count(posts.closed)).toBe(0);
  });

  it('an outsider gets NOT_FOUND/404 on the list, adding, deleting and the attachment, and nothing is stored', async () => {
    const c = await added(w.token.admin, { postId: posts.board, content: '役員のコメント' });
    const files = await storedFiles();
    expect(
      (await gql(w.p.url, LIST, { id: posts.board }, { token: w.token.staff })).body.errors[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect((await add(w.token.staff, { postId: posts.board, content: '覗き' })).body.errors[0].extensions.code).toBe(
      'NOT_FOUND',
    );
    expect((await gql(w.p.url, DELETE, { id: c.id }, { token: w.token.staff })).body.errors[0].extensions.code).toBe(
      'NOT_FOUND',
    );
    expect((await api(w.p.url, 'GET', `/comments/${posts.board}`, { token: w.token.staff })).status).toBe(404);
    const image = await png();
    const post = await api(w.p.url, 'POST', '/comments', {
      token: w.token.staff,
      body: {
        blog_id: posts.board,
        user_id: w.id.staff,
        content: '覗き',
        attachment: dataUrl('image/png', image),
        attachment_type: 'image/png',
        attachment_filename: 'a.png',
      },
    });
    expect(post.status).toBe(404);
    expect(await storedFiles()).toBe(files);
    expect((await api(w.p.url, 'DELETE', `/comments/${c.id}`, { token: w.token.staff })).status).toBe(404);
    // The admin's own attachment on the board post: served to the admin, 404 to the outsider.
    const withFile = await api(w.p.url, 'POST', '/comments', {
      token: w.token.admin,
      body: {
        blog_id: posts.board,
        user_id: w.id.admin,
        content: '資料です',
        attachment: dataUrl('image/png', image),
        attachment_type: 'image/png',
        attachment_filename: '資料.png',
      },
    });
    expect(withFile.status).toBe(201);
    expect(withFile.body).toMatchObject({
      attachment: `/api/comments/${withFile.body.comment_id}/attachment`,
      attachment_type: 'image/png',
      attachment_filename: '資料.png',
    });
    const get = (token: string) =>
      fetch(`${w.p.url}${withFile.body.attachment}`, { headers: { authorization: `Bearer ${token}` } });
    const served = await get(w.token.admin);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get(w.token.staff)).status).toBe(404);
    expect(await count(posts.board)).toBe(2);
  });

  it("the comment's author and the post's author delete; anyone else is FORBIDDEN; replies and files go with their comment", async () => {
    const top = await added(w.token.colleague, { postId: posts.open, content: '消されるコメント' });
    await added(w.token.admin, { postId: posts.open, content: '消される返信', parentId: top.id });
    const other = await added(w.token.admin, { postId: posts.open, content: '管理者のコメント' });
    const refused = await gql(w.p.url, DELETE, { id: top.id }, { token: w.token.admin });
    expect(refused.body.errors[0]).toMatchObject({
      message: 'このコメントを削除する権限がありません。',
      extensions: { code: 'FORBIDDEN' },
    });
    const before = await count(posts.open);
    // The post's author (staff) deletes a colleague's comment; its reply goes with it.
    expect((await gql(w.p.url, DELETE, { id: top.id }, { token: w.token.staff })).body.data.deleteBlogComment).toBe(
      true,
    );
    expect(await count(posts.open)).toBe(before - 2);
    const deleted = await w.sql(
      `select payload from outbox_event where type = 'blog.comment.deleted' union all select payload from outbox_sent where type = 'blog.comment.deleted'`,
    );
    expect(deleted.filter((e) => e.payload.commentId === top.id).map((e) => e.payload)).toMatchObject([
      { commentId: top.id, replyIds: [expect.any(Number)] },
    ]);
    // The comment's author deletes their own through /api.
    const del = await api(w.p.url, 'DELETE', `/comments/${other.id}`, { token: w.token.admin });
    expect([del.status, del.body]).toEqual([200, { comment_id: other.id, deleted: true }]);
    expect((await api(w.p.url, 'DELETE', `/comments/${other.id}`, { token: w.token.admin })).status).toBe(404);
  });

  it("/api: the spec's fields, user_id must be the caller, attachments checked by content, a missing commenter is Unknown", async () => {
    const forged = await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: { blog_id: posts.open, user_id: w.id.admin, content: 'なりすまし' },
    });
    expect(forged.status).toBe(403);
    const before = await count(posts.open);
    const files = await storedFiles();
    const fake = await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: {
        blog_id: posts.open,
        user_id: w.id.colleague,
        content: '画像です',
        attachment: dataUrl('image/png', Buffer.from('just text, not a picture')),
        attachment_type: 'image/png',
        attachment_filename: 'photo.png',
      },
    });
    expect(fake.status).toBe(400);
    expect(fake.body).toMatchObject({
      code: 'BAD_USER_INPUT',
      fileCode: 'FILE_CONTENT_MISMATCH',
      fieldErrors: [{ field: 'attachment' }],
    });
    expect([await count(posts.open), await storedFiles()]).toEqual([before, files]);

    const made = await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: { blog_id: posts.open, user_id: w.id.colleague, content: 'REST のコメント', parent_comment_id: null },
    });
    expect(made.status).toBe(201);
    const reply = await api(w.p.url, 'POST', '/comments', {
      token: w.token.staff,
      body: { blog_id: posts.open, content: 'REST の返信', parent_comment_id: made.body.comment_id },
    });
    expect(reply.status).toBe(201);
    // An employee row gone: the comment stays, its author reads 'Unknown'.
    const [{ id: ghost }] = await w.sql(
      `insert into employee (login_id, name, department_id, role, status, password_hash) select 'ghost-commenter', '幽霊', department_id, role, status, password_hash from employee where id = ? returning id`,
      [w.id.colleague],
    );
    await w.sql(`insert into blog_comment (post_id, author_id, content) values (?, ?, '去った人のコメント')`, [
      posts.open,
      ghost,
    ]);
    await w.sql(`delete from employee where id = ?`, [ghost]);
    const listed = await api(w.p.url, 'GET', `/comments/${posts.open}`, { token: w.token.colleague });
    expect(listed.status).toBe(200);
    const mine = listed.body.find((c: { comment_id: number }) => c.comment_id === made.body.comment_id);
    expect(mine).toMatchObject({
      blog_id: posts.open,
      user_id: w.id.colleague,
      content: 'REST のコメント',
      parent_comment_id: null,
      attachment: null,
      attachment_type: null,
      attachment_filename: null,
    });
    expect(mine.username).toEqual(expect.any(String));
    expect(mine.replies).toMatchObject([
      { comment_id: reply.body.comment_id, parent_comment_id: made.body.comment_id, user_id: w.id.staff, replies: [] },
    ]);
    expect(listed.body.at(-1)).toMatchObject({ user_id: null, username: 'Unknown', content: '去った人のコメント' });
  });

  it('deleting a post removes its comments and their stored files', async () => {
    const post = await w.post(w.token.staff, { title: '消える投稿', categoryId: w.cat.news, publishStart: w.day(-1) });
    const c = await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: {
        blog_id: post.id,
        user_id: w.id.colleague,
        content: '添付つき',
        attachment: dataUrl('image/png', await png()),
        attachment_filename: 'a.png',
      },
    });
    expect(c.status).toBe(201);
    const [keys] = await w.sql(`select attachment_key, attachment_thumb_key from blog_comment where id = ?`, [
      c.body.comment_id,
    ]);
    const store = new LocalFileStorage(defaultFilesRoot(w.p.config.dataDir));
    expect([await store.exists(keys.attachment_key), await store.exists(keys.attachment_thumb_key)]).toEqual([
      true,
      true,
    ]);
    expect((await api(w.p.url, 'DELETE', `/blogs/${post.id}`, { token: w.token.staff })).status).toBe(200);
    expect(await count(post.id)).toBe(0);
    expect([await store.exists(keys.attachment_key), await store.exists(keys.attachment_thumb_key)]).toEqual([
      false,
      false,
    ]);
  });
});

describe('editing a comment', () => {
  const EDIT = `mutation($id: Int!, $c: String!) { editBlogComment(id: $id, content: $c) { id content editedAt canEdit canDelete } }`;
  const edit = (token: string, id: number, c: string) => gql(w.p.url, EDIT, { id, c }, { token });

  it('its author changes the text, marked edited with one event; the same text again changes and records nothing', async () => {
    const c = await added(w.token.colleague, { postId: posts.open, content: '誤字あり' });
    const before = await events('blog.comment.edited', posts.open);
    const r = await edit(w.token.colleague, c.id, '  誤字を直しました  ');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.editBlogComment).toMatchObject({ content: '誤字を直しました', canEdit: true });
    const editedAt = r.body.data.editBlogComment.editedAt;
    expect(Date.parse(editedAt)).toBeGreaterThan(0);
    expect(await events('blog.comment.edited', posts.open)).toBe(before + 1);
    const again = await edit(w.token.colleague, c.id, '誤字を直しました');
    expect(again.body.data.editBlogComment.editedAt).toBe(editedAt);
    expect(await events('blog.comment.edited', posts.open)).toBe(before + 1);
    // Others see the new text and that it was edited, and may not edit it.
    const seen = (await list(w.token.staff, posts.open)).find((x: { id: number }) => x.id === c.id);
    expect(seen.content).toBe('誤字を直しました');
  });

  it("no one else edits it, not even the post's author (FORBIDDEN / 403); blank is refused; an outsider gets NOT_FOUND / 404; nothing changes", async () => {
    const c = await added(w.token.colleague, { postId: posts.open, content: '元の文' });
    const other = await edit(w.token.staff, c.id, '書き換え');
    expect(other.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(other.body.errors[0].message).toBe('コメントを編集できるのはコメントした本人だけです。');
    const rest = await api(w.p.url, 'PUT', `/comments/${c.id}`, {
      token: w.token.staff,
      body: { content: '書き換え' },
    });
    expect(rest.status).toBe(403);
    const blank = await edit(w.token.colleague, c.id, '   ');
    expect(blank.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(blank.body.errors[0].message).toBe('コメントを入力してください。');
    const long = await api(w.p.url, 'PUT', `/comments/${c.id}`, {
      token: w.token.colleague,
      body: { content: 'あ'.repeat(2001) },
    });
    expect(long.status).toBe(400);
    const file = await api(w.p.url, 'PUT', `/comments/${c.id}`, {
      token: w.token.colleague,
      body: { content: '添付も', attachment: dataUrl('image/png', await png()) },
    });
    expect(file.status).toBe(400);
    const boardComment = await added(w.token.admin, { postId: posts.board, content: '役員のコメント' });
    const outsider = await edit(w.token.staff, boardComment.id, '覗き見');
    expect(outsider.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const outsiderRest = await api(w.p.url, 'PUT', `/comments/${boardComment.id}`, {
      token: w.token.staff,
      body: { content: '覗き見' },
    });
    expect(outsiderRest.status).toBe(404);
    expect(JSON.stringify(outsiderRest.body)).not.toContain('役員のコメント');
    const rows = await w.sql(`select content, edited_at from blog_comment where id in (?, ?) order by id`, [
      c.id,
      boardComment.id,
    ]);
    expect(rows).toEqual([
      { content: '元の文', edited_at: null },
      { content: '役員のコメント', edited_at: null },
    ]);
  });

  it("/api PUT /comments/{id} answers the spec's record with edited_at and can_edit", async () => {
    const c = await added(w.token.colleague, { postId: posts.open, content: '返信前' });
    const r = await api(w.p.url, 'PUT', `/comments/${c.id}`, { token: w.token.colleague, body: { content: '返信後' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ comment_id: c.id, content: '返信後', can_edit: true, parent_comment_id: null });
    expect(Date.parse(r.body.edited_at)).toBeGreaterThan(0);
    const read = await api(w.p.url, 'GET', `/comments/${posts.open}?limit=100`, { token: w.token.staff });
    const mine = read.body.find((x: { comment_id: number }) => x.comment_id === c.id);
    expect(mine).toMatchObject({ content: '返信後', can_edit: false });
  });
});

describe('blog comments, paged (a post with many comments never answers all at once)', () => {
  const PAGE = `query($id: Int!, $after: String, $limit: Int) { blogComments(postId: $id, after: $after, limit: $limit) { totalCount nextCursor items { id replyCount replies { id } } } }`;
  const REPLIES = `query($id: Int!, $after: String, $limit: Int) { blogCommentReplies(commentId: $id, after: $after, limit: $limit) { nextCursor items { id parentId } } }`;
  let post: number;
  let top: number[];
  let replies: number[];
  beforeAll(async () => {
    post = (await w.post(w.token.staff, { title: '盛り上がる投稿', categoryId: w.cat.news, publishStart: w.day(-1) }))
      .id;
    // 45 top-level comments, the first with 25 replies, written straight in SQL (the API would throttle one writer).
    top = (
      await w.sql(
        `insert into blog_comment (post_id, author_id, content) select ?, ?, 'コメント ' || g from generate_series(1, 45) g returning id`,
        [post, w.id.colleague],
      )
    ).map((r: { id: number }) => r.id);
    replies = (
      await w.sql(
        `insert into blog_comment (post_id, author_id, parent_id, content) select ?, ?, ?, '返信 ' || g from generate_series(1, 25) g returning id`,
        [post, w.id.admin, top[0]],
      )
    ).map((r: { id: number }) => r.id);
  });

  it('GraphQL: pages of top-level comments oldest first on an opaque cursor, each with its first 10 replies and its reply count', async () => {
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const r = await gql(w.p.url, PAGE, { id: post, after, limit: 20 }, { token: w.token.colleague });
      const p = r.body.data.blogComments;
      expect(p.totalCount).toBe(70);
      expect(p.items.length).toBeLessThanOrEqual(20);
      seen.push(...p.items.map((c: { id: number }) => c.id));
      if (pages === 0)
        expect(p.items[0]).toMatchObject({
          id: top[0],
          replyCount: 25,
          replies: replies.slice(0, 10).map((id) => ({ id })),
        });
      after = p.nextCursor;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(seen).toEqual(top);
    // The default page is 20; more than 100 at once is refused.
    expect(
      (await gql(w.p.url, PAGE, { id: post }, { token: w.token.colleague })).body.data.blogComments.items,
    ).toHaveLength(20);
    const big = await gql(w.p.url, PAGE, { id: post, limit: 101 }, { token: w.token.colleague });
    expect(big.body.errors[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'limit' }] },
    });
    const forged = await gql(w.p.url, PAGE, { id: post, after: 'eHl6' }, { token: w.token.colleague });
    expect(forged.body.errors[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'after' }] },
    });
  });

  it('GraphQL: the rest of the replies come in pages; an outsider gets NOT_FOUND', async () => {
    const first = (await gql(w.p.url, REPLIES, { id: top[0], limit: 20 }, { token: w.token.colleague })).body.data
      .blogCommentReplies;
    expect(first.items.map((c: { id: number }) => c.id)).toEqual(replies.slice(0, 20));
    const rest = (await gql(w.p.url, REPLIES, { id: top[0], after: first.nextCursor }, { token: w.token.colleague }))
      .body.data.blogCommentReplies;
    expect(rest).toEqual({ nextCursor: null, items: replies.slice(20).map((id) => ({ id, parentId: top[0] })) });
    // A cursor of the comments list is not one of replies.
    const page = (await gql(w.p.url, PAGE, { id: post, limit: 1 }, { token: w.token.colleague })).body.data
      .blogComments;
    expect(
      (await gql(w.p.url, REPLIES, { id: top[0], after: page.nextCursor }, { token: w.token.colleague })).body.errors[0]
        .extensions.code,
    ).toBe('BAD_USER_INPUT');
    const board = await added(w.token.admin, { postId: posts.board, content: '役員のコメント' });
    expect(
      (await gql(w.p.url, REPLIES, { id: board.id }, { token: w.token.staff })).body.errors[0].extensions.code,
    ).toBe('NOT_FOUND');
  });

  it('15 aliases of the largest page are refused before anything runs (400, the estimated count said); one passes', async () => {
    const field = `blogComments(postId: ${post}, limit: 100) { items { id content createdAt canDelete author { id name departmentName } attachment { url name type size thumbnailUrl } replies { id content createdAt canDelete author { id name } } } }`;
    const flood = await gql(
      w.p.url,
      `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: ${field}`).join(' ')} }`,
      {},
      { token: w.token.colleague },
    );
    expect(flood.status).toBe(400);
    expect(flood.body.data).toBeUndefined();
    expect(flood.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', maxListCost: 50000 } });
    expect(flood.body.errors[0].message).toMatch(/一度に求める件数が多すぎます/);
    const one = await gql(w.p.url, `{ ${field} }`, {}, { token: w.token.colleague });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.blogComments.items).toHaveLength(45);
  });

  it('REST: GET /comments/{blog_id} pages with limit and cursor (X-Next-Cursor, X-Total-Count), replies at /comments/{id}/replies', async () => {
    const first = await api(w.p.url, 'GET', `/comments/${post}?limit=40`, { token: w.token.colleague });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(40);
    expect(first.headers.get('x-total-count')).toBe('70');
    expect(first.body[0]).toMatchObject({ comment_id: top[0], reply_count: 25 });
    expect(first.body[0].replies).toHaveLength(10);
    const cursor = first.headers.get('x-next-cursor')!;
    const second = await api(w.p.url, 'GET', `/comments/${post}?limit=40&cursor=${encodeURIComponent(cursor)}`, {
      token: w.token.colleague,
    });
    expect(second.body.map((c: { comment_id: number }) => c.comment_id)).toEqual(top.slice(40));
    expect(second.headers.get('x-next-cursor')).toBeNull();
    const rs = await api(w.p.url, 'GET', `/comments/${top[0]}/replies?limit=100`, { token: w.token.colleague });
    expect(rs.body.map((c: { comment_id: number }) => c.comment_id)).toEqual(replies);
    expect((await api(w.p.url, 'GET', `/comments/${post}?limit=0`, { token: w.token.colleague })).status).toBe(400);
    expect((await api(w.p.url, 'GET', `/comments/${post}?cursor=nope`, { token: w.token.colleague })).status).toBe(400);
  });
});
