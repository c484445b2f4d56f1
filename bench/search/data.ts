/**
 * The search bench's data: the feed bench's (bench/feed/data.ts: 100,000 posts over 900 days in 30
 * categories, the viewer `staff` in 5), plus a comment on one post in five and "AI" in one title in
 * 97, so that one- and two-character words have hits in every source: all of it through the
 * triggers that keep blog_search_doc, as the platform's own writes do. (One in five: the seeder's
 * ids and categories line up so that a multiple of four is never in the viewer's categories.)
 */
import { withClient, type BenchDatabase } from '../lib/database.js';
import { prepareFeedData, VIEWER_LOGIN } from '../feed/data.js';

export { VIEWER_LOGIN };

const COMMENTS = [
  '総務の会議室を予約しました',
  'AIで議事録を作ってみました',
  '資料ありがとうございます',
  '次回の会議にも参加します',
  '質問があります。担当はどなたですか',
  '了解しました',
  '総務部に確認します',
  '写真が素敵ですね',
];

/** One-, two- and longer-character queries: common and rare, in every source, one with no hit, and several terms. */
export const QUERIES = [
  '会',
  '彰',
  '訓',
  '了',
  '募',
  '報告',
  '障害',
  '会議',
  '総務',
  'AI',
  '議事',
  'システムメンテナンス',
  '定例会の議題',
  'ご協力ありがとうございました',
  '会議室を予約',
  'AI活用',
  '勉強会レポート',
  '存在しない言葉',
  // Common in bodies (3,333 rows the viewer may see) but few among the newest 500: the bounded walk.
  '紹介',
  // Several terms (each anywhere in the post) and a phrase.
  '会議 参加',
  '"定例会の議題" 共有',
];

export async function prepareSearchData(db: BenchDatabase, o: { employees: number; posts: number }) {
  const feed = await prepareFeedData(db, o);
  const extra = await withClient(db.url, async (c) => {
    await c.query(`update blog_post set title = title || '（AI活用）' where id % 97 = 0`);
    const r = await c.query<{ n: number }>(
      `with e as (select array_agg(id order by id) as ids from employee where status = 'ACTIVE')
       insert into blog_comment (post_id, author_id, content, created_at)
       select p.id, e.ids[1 + (p.id * 13) % array_length(e.ids, 1)], ($1::text[])[1 + (p.id / 5) % $2], p.created_at + interval '1 hour'
         from blog_post p, e where p.id % 5 = 0
       returning 1`,
      [COMMENTS, COMMENTS.length],
    );
    // As autovacuum leaves a table at rest: statistics, and the visibility map for index-only scans.
    await c.query(`vacuum analyze blog_search_doc, blog_comment, blog_post`);
    const [{ docs }] = (await c.query<{ docs: number }>(`select count(*)::int as docs from blog_search_doc`)).rows;
    return { comments: r.rowCount ?? 0, docs };
  });
  return { ...feed, ...extra };
}
