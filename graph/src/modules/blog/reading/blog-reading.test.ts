import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, loginToken } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { liveWatch, type LiveChange } from '../blog.live.test-support.js';
import { ask, bell } from '../../notifications/notification.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const CONFIRM = `mutation($id: Int!) { confirmBlogPostReading(id: $id) { id requireConfirmation confirmedCount confirmedByMe } }`;
const STATUS = `query($id: Int!) { blogReadingStatus(postId: $id) { postId confirmed { id name confirmedAt } unconfirmed { id name departmentName } } }`;
const REMIND = `mutation($id: Int!) { remindBlogPostReading(postId: $id) }`;
const RESET = `mutation($id: Int!) { resetBlogPostReading(postId: $id) { confirmed { id } unconfirmed { id } } }`;
const code = async (token: string, query: string, id: number) =>
  (await gql(w.p.url, query, { id }, { token })).body.errors?.[0]?.extensions.code as string | undefined;
const required = (title: string) =>
  w.post(w.token.staff, {
    title,
    categoryId: w.cat.news,
    publishStart: w.day(-1),
    isPin: true,
    requireConfirmation: true,
  });
const requests = async (token: string, postId: number) =>
  (await bell(w, token)).items.filter((n) => n.postId === postId && n.kind === 'READ_REQUEST');
type Status = { confirmed: { id: number }[]; unconfirmed: { id: number }[] };
const status = async (id: number) =>
  (await ask<{ blogReadingStatus: Status }>(w, w.token.staff, STATUS, { id })).blogReadingStatus;

describe('required reading of 速報 posts', () => {
  it('is asked only with the pin', async () => {
    const r = await gql(
      w.p.url,
      `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id } }`,
      { i: { title: '必読: ピンなし', content: { blocks: [] }, categoryId: w.cat.news, requireConfirmation: true } },
      { token: w.token.staff },
    );
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors[0].message + JSON.stringify(r.body.errors[0].extensions)).toContain('速報');
    expect(await w.sql(`select count(*)::int as n from blog_post where title = '必読: ピンなし'`)).toEqual([{ n: 0 }]);
  });

  it('asks every reader who may see the post (a notification each), never its author or an outsider', async () => {
    const post = await required('必読: 依頼');
    expect(await requests(w.token.colleague, post.id)).toHaveLength(1);
    expect(await requests(w.token.admin, post.id)).toHaveLength(1);
    expect(await requests(w.token.staff, post.id)).toEqual([]);
    expect(await requests(w.token.outsider, post.id)).toEqual([]);
    const { unconfirmed } = await status(post.id);
    expect(unconfirmed.map((r) => r.id)).toEqual(expect.arrayContaining([w.id.colleague, w.id.admin]));
    expect(unconfirmed.map((r) => r.id)).not.toContain(w.id.staff);
  });

  it('is confirmed only by a reader who may see the post: not its author, not an outsider, not where it is not asked', async () => {
    const post = await required('必読: 確認');
    const plain = await w.post(w.token.staff, { title: '必読でない', categoryId: w.cat.news, publishStart: w.day(-1) });
    expect(await code(w.token.outsider, CONFIRM, post.id)).toBe('NOT_FOUND');
    expect(await code(w.token.staff, CONFIRM, post.id)).toBe('FORBIDDEN');
    expect(await code(w.token.colleague, CONFIRM, plain.id)).toBe('BAD_USER_INPUT');
    expect(
      await w.sql(`select count(*)::int as n from blog_read_confirmation where post_id = any(?::int[])`, [
        `{${post.id},${plain.id}}`,
      ]),
    ).toEqual([{ n: 0 }]);

    const done = await ask<{ confirmBlogPostReading: { confirmedCount: number; confirmedByMe: boolean } }>(
      w,
      w.token.colleague,
      CONFIRM,
      { id: post.id },
    );
    expect(done.confirmBlogPostReading).toMatchObject({ confirmedCount: 1, confirmedByMe: true });
    expect(
      (
        await ask<{ confirmBlogPostReading: { confirmedCount: number } }>(w, w.token.colleague, CONFIRM, {
          id: post.id,
        })
      ).confirmBlogPostReading.confirmedCount,
    ).toBe(1);
    // The request is answered: it no longer waits unread.
    expect((await requests(w.token.colleague, post.id)).map((n) => n.read)).toEqual([true]);
    const s = await status(post.id);
    expect(s.confirmed.map((r) => r.id)).toEqual([w.id.colleague]);
    expect(s.unconfirmed.map((r) => r.id)).not.toContain(w.id.colleague);
  });

  it('is no longer confirmed once the pin has ended: BAD_USER_INPUT with a Japanese message, nothing written, and the post says so', async () => {
    const post = await required('必読: 速報終了');
    const OPEN = `query($id: Int!) { blogPost(id: $id) { confirmationOpen } }`;
    expect(
      (await ask<{ blogPost: { confirmationOpen: boolean } }>(w, w.token.colleague, OPEN, { id: post.id })).blogPost
        .confirmationOpen,
    ).toBe(true);
    await w.sql(`update blog_post set pin_start = ?::date, pin_end = ?::date where id = ?`, [
      w.day(-5),
      w.day(-1),
      post.id,
    ]);
    const r = await gql(w.p.url, CONFIRM, { id: post.id }, { token: w.token.colleague });
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors[0].message).toContain('速報の掲載が終わった');
    expect(await w.sql(`select count(*)::int as n from blog_read_confirmation where post_id = ?`, [post.id])).toEqual([
      { n: 0 },
    ]);
    expect(
      (await ask<{ blogPost: { confirmationOpen: boolean } }>(w, w.token.colleague, OPEN, { id: post.id })).blogPost
        .confirmationOpen,
    ).toBe(false);
    // Nor does the author remind or reset then, and a post saved with its pin already over asks nobody.
    for (const q of [REMIND, RESET]) {
      const r = await gql(w.p.url, q, { id: post.id }, { token: w.token.staff });
      expect([r.body.errors[0].extensions.code, r.body.errors[0].message]).toEqual([
        'BAD_USER_INPUT',
        expect.stringContaining('速報の掲載が終わった'),
      ]);
    }
    const over = await w.post(w.token.staff, {
      title: '必読: 終わった速報',
      categoryId: w.cat.news,
      publishStart: w.day(-5),
      isPin: true,
      pinStart: w.day(-5),
      pinEnd: w.day(-1),
      requireConfirmation: true,
    });
    expect(await w.sql(`select count(*)::int as n from notification where post_id = ?`, [over.id])).toEqual([{ n: 0 }]);
  });

  it('only the author sees who confirmed, reminds the rest (a notification each) and resets', async () => {
    const post = await required('必読: 作成者');
    await ask(w, w.token.colleague, CONFIRM, { id: post.id });
    for (const q of [STATUS, REMIND, RESET]) {
      expect(await code(w.token.colleague, q, post.id)).toBe('FORBIDDEN');
      expect(await code(w.token.outsider, q, post.id)).toBe('NOT_FOUND');
    }

    const before = await status(post.id);
    const reminded = await ask<{ remindBlogPostReading: number }>(w, w.token.staff, REMIND, { id: post.id });
    expect(reminded.remindBlogPostReading).toBe(before.unconfirmed.length);
    expect(await requests(w.token.admin, post.id)).toHaveLength(2);
    expect(await requests(w.token.colleague, post.id)).toHaveLength(1);

    const reset = await ask<{ resetBlogPostReading: Status }>(w, w.token.staff, RESET, { id: post.id });
    expect(reset.resetBlogPostReading.confirmed).toEqual([]);
    expect(reset.resetBlogPostReading.unconfirmed.map((r) => r.id)).toContain(w.id.colleague);
    const again = await ask<{ blogPost: { confirmedCount: number; confirmedByMe: boolean } }>(
      w,
      w.token.colleague,
      `query($id: Int!) { blogPost(id: $id) { confirmedCount confirmedByMe } }`,
      {
        id: post.id,
      },
    );
    expect(again.blogPost).toEqual({ confirmedCount: 0, confirmedByMe: false });
    const asked = await requests(w.token.colleague, post.id);
    expect(asked.map((n) => n.read)).toEqual([false, true]);
  });

  it('confirmation counts reach every open feed that may see the post, live', async () => {
    const post = await required('必読: ライブ');
    const SUB = `subscription { blogChanged { kind postId post { id confirmedCount confirmedByMe } categoryId category { id name color } } }`;
    const live = liveWatch(w);
    const author = await live.watch(w.token.staff, SUB);
    await ask(w, w.token.colleague, CONFIRM, { id: post.id });
    await author.until(
      (c) =>
        c.kind === 'ENGAGEMENT_CHANGED' &&
        c.postId === post.id &&
        (c.post as unknown as { confirmedCount: number })?.confirmedCount === 1,
    );
    await author.close();
  });

  it("each reader's live view says whether they themselves confirmed (two members of the same class, only one confirms)", async () => {
    const post = await required('必読: 各自の確認');
    const [third] = await w.sql(
      `select e.login_id from employee e join employee s on s.login_id = 'staff' where e.department_id = s.department_id and e.status = 'ACTIVE' and e.role = 'GENERAL' and e.id not in (?, ?) order by e.id limit 1`,
      [w.id.staff, w.id.colleague],
    );
    const thirdToken = await loginToken(w.p.url, third.login_id);
    const SUB = `subscription { blogChanged { kind postId post { id confirmedCount confirmedByMe } categoryId category { id name color } } }`;
    const live = liveWatch(w);
    const [other, confirmer] = [await live.watch(w.token.colleague, SUB), await live.watch(thirdToken, SUB)];
    await ask(w, thirdToken, CONFIRM, { id: post.id });
    const counted = (c: LiveChange) =>
      c.postId === post.id && (c.post as unknown as { confirmedCount: number } | null)?.confirmedCount === 1;
    await Promise.all([other.until(counted), confirmer.until(counted)]);
    const mine = (watch: typeof other) =>
      (watch.changes.find(counted)!.post as unknown as { confirmedByMe: boolean }).confirmedByMe;
    expect([mine(other), mine(confirmer)]).toEqual([false, true]);
    await Promise.all([other.close(), confirmer.close()]);
  });

  it('reminds once a day per post: aliases and repeats are refused (429), a 管理者 may remind too; the next Tokyo day allows one again', async () => {
    const post = await required('必読: 一日一回');
    const flood = await gql(
      w.p.url,
      `mutation { ${[1, 2, 3, 4, 5].map((i) => `r${i}: remindBlogPostReading(postId: ${post.id})`).join(' ')} }`,
      {},
      { token: w.token.staff },
    );
    const refused = flood.body.errors.filter(
      (e: { extensions: { code: string } }) => e.extensions.code === 'TOO_MANY_REQUESTS',
    );
    // The first alias reminds; the second is refused, which ends the (non-null) mutation's run.
    expect(refused).toHaveLength(1);
    expect(refused[0].path).toEqual(['r2']);
    expect(refused[0].message).toBe(
      '確認のリマインドは1つの投稿につき1日1回までです。明日以降にもう一度お試しください。',
    );
    expect(refused[0].extensions.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused[0].extensions.retryAfterSeconds).toBeLessThanOrEqual(86_400);
    // The readers were asked once (the post's own request) and reminded once: two notifications each at most.
    expect((await requests(w.token.colleague, post.id)).length).toBeLessThanOrEqual(2);
    expect(await code(w.token.admin, REMIND, post.id)).toBe('TOO_MANY_REQUESTS');
    await w.sql(`update blog_post set reading_reminded_at = now() - interval '1 day' where id = ?`, [post.id]);
    expect(await code(w.token.admin, REMIND, post.id)).toBeUndefined(); // a 管理者, not the author
    expect(await code(w.token.colleague, REMIND, post.id)).toBe('FORBIDDEN');
  });

  it('reminders sent at the same moment (two tabs, the author and a 管理者): one reminds, the others are told 429, none fails', async () => {
    const post = await required('必読: 同時のリマインド');
    const codes = await Promise.all(
      [w.token.staff, w.token.staff, w.token.admin, w.token.admin, w.token.staff].map((t) => code(t, REMIND, post.id)),
    );
    expect(codes.filter((c) => c === undefined)).toHaveLength(1);
    expect(codes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(4);
  });

  it('the lists come a page at a time with their counts: the pages add up to every reader, in one order', async () => {
    const post = await required('必読: ページ');
    await ask(w, w.token.colleague, CONFIRM, { id: post.id });
    const COUNTS = `query($id: Int!) { blogReadingStatus(postId: $id) { confirmedCount unconfirmedCount confirmed { id } } }`;
    const counts = (
      await ask<{
        blogReadingStatus: { confirmedCount: number; unconfirmedCount: number; confirmed: { id: number }[] };
      }>(w, w.token.staff, COUNTS, { id: post.id })
    ).blogReadingStatus;
    expect(counts.confirmedCount).toBe(1);
    expect(counts.confirmed.map((r) => r.id)).toEqual([w.id.colleague]);
    const [{ n }] = await w.sql(
      `select count(*)::int as n from notification where post_id = ? and kind = 'READ_REQUEST'`,
      [post.id],
    );
    expect(counts.unconfirmedCount).toBe(n - 1);
    expect(counts.unconfirmedCount).toBeGreaterThan(2);

    const PAGE = `query($id: Int!, $o: Int!, $l: Int!) { blogReadingStatus(postId: $id) { unconfirmed(offset: $o, limit: $l) { id } } }`;
    const paged: number[] = [];
    for (let o = 0; o < counts.unconfirmedCount; o += 2) {
      const page = await ask<{ blogReadingStatus: { unconfirmed: { id: number }[] } }>(w, w.token.staff, PAGE, {
        id: post.id,
        o,
        l: 2,
      });
      paged.push(...page.blogReadingStatus.unconfirmed.map((r) => r.id));
    }
    const whole = await ask<{ blogReadingStatus: { unconfirmed: { id: number }[] } }>(w, w.token.staff, PAGE, {
      id: post.id,
      o: 0,
      l: 200,
    });
    expect(paged).toEqual(whole.blogReadingStatus.unconfirmed.map((r) => r.id));
    expect(new Set(paged).size).toBe(counts.unconfirmedCount);
    const bad = await gql(w.p.url, PAGE, { id: post.id, o: 0, l: 0 }, { token: w.token.staff });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
