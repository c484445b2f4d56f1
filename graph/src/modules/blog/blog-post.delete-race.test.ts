/**
 * A post deleted while someone comments on it, likes, saves, marks it seen or confirms reading it:
 * the write that loses the race answers the post's NOT_FOUND, never a 500 from the foreign key.
 * The race is made certain: another connection deletes the post and holds the deletion open until
 * the write has read the post, then commits.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../../test/http.js';
import { blogWorld, type BlogWorld } from './blog.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const WRITES: Record<string, (id: number) => [string, Record<string, unknown>]> = {
  comment: (id) => [
    `mutation($id: Int!) { addBlogComment(input: { postId: $id, content: "消える投稿へ" }) { id } }`,
    { id },
  ],
  like: (id) => [`mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { id } }`, { id }],
  save: (id) => [`mutation($id: Int!) { saveBlogPost(id: $id, saved: true) { id } }`, { id }],
  seen: (id) => [`mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`, { id }],
  confirm: (id) => [`mutation($id: Int!) { confirmBlogPostReading(id: $id) { id } }`, { id }],
};

describe('a post deleted under a write', () => {
  for (const [what, write] of Object.entries(WRITES)) {
    it(`${what}: the post's NOT_FOUND, never a 500`, async () => {
      const post = await w.post(w.token.admin, {
        title: `消える投稿 ${what}`,
        categoryId: w.cat.news,
        publishStart: w.day(-1),
        isPin: true,
        requireConfirmation: true,
      });
      const deleter = new pg.Client({ connectionString: w.p.db.url });
      await deleter.connect();
      try {
        await deleter.query('begin');
        await deleter.query(`delete from blog_post where id = $1`, [post.id]);
        const [query, variables] = write(post.id);
        const answer = gql(w.p.url, query, variables, { token: w.token.colleague });
        await new Promise((r) => setTimeout(r, 400)); // the write has read the post and waits on its row
        await deleter.query('commit');
        const r = await answer;
        expect(r.body.errors?.[0], JSON.stringify(r.body)).toMatchObject({
          message: '投稿が見つかりません。',
          extensions: { code: 'NOT_FOUND' },
        });
      } finally {
        await deleter.end();
      }
    });
  }
});
