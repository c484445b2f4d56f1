import type { EntityManager } from '@mikro-orm/postgresql';
import { SQL } from '../../modules/blog/blog-post.rules.js';
import { TAGS } from './demo-blog-categories.js';

/**
 * The blog at scale, set-based (generate_series, never row by row), for the feed's scale test and
 * `npm run bench -- feed`: it replaces the demo's blog with `categories` categories, `tags` tags and
 * `posts` posts over the last 900 days by the active employees there are. One viewer (`viewerLogin`)
 * belongs to `viewerCategories` of them, every `ceil(categories / viewerCategories)`-th: the first
 * two through their department, the others by name. The other categories are read by two other
 * departments each and a thirtieth of the employees by name, never the viewer. Posts: Japanese
 * titles and a paragraph, 0–3 tags, a picture with its thumbnail on one in five and a PDF on one in
 * fifteen; one in fifty ends 30 days after its start, one in 211 is scheduled, one in 307 a draft;
 * the `pinnedPerCategory` newest posts of each category are pinned, most of them today.
 */
export interface BlogAtScaleOptions {
  posts: number;
  /** The Tokyo date the posts are placed around (publish starts are before it). */
  today: string;
  categories?: number;
  tags?: number;
  viewerLogin?: string;
  viewerCategories?: number;
  pinnedPerCategory?: number;
}

export interface BlogAtScale {
  viewerId: number;
  /** The categories the viewer reads, by id. */
  readable: number[];
  /** …of which through the viewer's department, and by name. */
  byDepartment: number[];
  byName: number[];
  categories: number;
  tags: number;
  posts: number;
  withThumbnail: number;
  pinned: number;
}

const CATEGORY_NAMES = [
  '社内報',
  '総務からのお知らせ',
  '人事',
  '経理',
  '開発ブログ',
  '営業レポート',
  '品質保証',
  'マーケティング',
  '情報システム',
  '安全衛生',
  '部活動・サークル',
  '役員',
  '東京本社',
  '大阪支社',
  '姫路工場',
  '新人紹介',
  '福利厚生',
  '研修・勉強会',
  '製品情報',
  '広報',
  '法務',
  '購買',
  '物流',
  'カスタマーサポート',
  '設計',
  '製造',
  '経営企画',
  '海外事業',
  '社内イベント',
  'ナレッジ共有',
];
const TAG_WORDS = [
  ...TAGS,
  '障害報告',
  'セキュリティ',
  '研修',
  '新製品',
  '展示会',
  '顧客事例',
  '品質',
  '安全',
  '防災',
  '働き方',
  'リモートワーク',
  '評価制度',
  '経費精算',
  '出張',
  '社内報',
  '部活動',
  '懇親会',
  '新人',
  '異動',
  '組織変更',
  'システム更新',
  'メンテナンス',
  'アンケート',
  '表彰式',
  'ボランティア',
  'サステナビリティ',
  '広報',
  '決算',
];
const TITLES = [
  '月次報告',
  '定例会のお知らせ',
  'リリースノート',
  '勉強会レポート',
  '障害報告',
  '新メンバー紹介',
  '社内イベントのご案内',
  '制度変更のお知らせ',
  '出張報告',
  '顧客訪問レポート',
  '品質改善の取り組み',
  '安全衛生委員会だより',
  'システムメンテナンスのお知らせ',
  '展示会出展レポート',
  '今月の表彰',
  '部活動報告',
  '防災訓練の結果',
  '新製品のご紹介',
  '経費精算の締め切り',
  'アンケートのお願い',
];
const PARAGRAPHS = [
  '今月の活動をまとめました。詳細は添付の資料と共有フォルダをご覧ください。ご不明な点は担当までお問い合わせください。',
  '来週の定例会の議題を共有します。各部署からの報告事項は前日までに提出をお願いします。資料は当日に画面で共有します。',
  '先日の取り組みの結果を報告します。参加いただいた皆さん、ご協力ありがとうございました。次回の予定は決まり次第お知らせします。',
  '社内システムの更新に伴い、一部の画面の操作が変わります。変更点の一覧と手順書を用意しましたので、事前にご確認ください。',
  '新しく仲間が加わりました。配属先と担当業務を紹介します。見かけたらぜひ声をかけてください。',
];

const sqlArray = (xs: readonly string[]) => `{${xs.map((x) => `"${x}"`).join(',')}}`;

export async function seedBlogAtScale(em: EntityManager, o: BlogAtScaleOptions): Promise<BlogAtScale> {
  const nCat = o.categories ?? 30;
  const nTags = o.tags ?? 200;
  const nViewer = o.viewerCategories ?? 5;
  const pinnedPerCategory = o.pinnedPerCategory ?? 2;
  const [viewer]: { id: number; department_id: number | null }[] = await em.execute(
    `select id, department_id from employee where login_id = ?`,
    [o.viewerLogin ?? 'staff'],
  );
  if (!viewer) throw new Error(`seedBlogAtScale: no employee ${o.viewerLogin ?? 'staff'}`);

  await em.execute(`delete from blog_post; delete from blog_tag; delete from blog_category`);
  await em.execute(
    `insert into blog_category (name, color, members_may_post)
     select coalesce((?::text[])[i], 'カテゴリ' || i),
            '#' || lpad(to_hex((i * 2654435761::bigint) % 16777216), 6, '0'), i % 3 <> 0
       from generate_series(1, ?) i`,
    [sqlArray(CATEGORY_NAMES), nCat],
  );
  const cats: { id: number }[] = await em.execute(`select id from blog_category order by id`);
  const stride = Math.ceil(nCat / nViewer);
  const readable = cats
    .filter((_, i) => i % stride === 0)
    .slice(0, nViewer)
    .map((c) => c.id);
  const byDepartment = viewer.department_id !== null ? readable.slice(0, 2) : [];
  const byName = readable.filter((id) => !byDepartment.includes(id));
  await em.execute(`insert into blog_category_department (category_id, department_id) select unnest(?::int[]), ?`, [
    `{${byDepartment.join(',')}}`,
    viewer.department_id,
  ]);
  await em.execute(`insert into blog_category_employee (category_id, employee_id) select unnest(?::int[]), ?`, [
    `{${byName.join(',')}}`,
    viewer.id,
  ]);
  // Everyone else's categories: two departments other than the viewer's, and named employees.
  await em.execute(
    `with d as (select array_agg(id order by id) as ids from department where id is distinct from ?)
     insert into blog_category_department (category_id, department_id)
     select c.id, d.ids[1 + (c.id * 3 + k) % array_length(d.ids, 1)] from blog_category c, d, generate_series(0, 1) k
      where c.id <> all(?::int[]) and array_length(d.ids, 1) > 0
     on conflict do nothing`,
    [viewer.department_id, `{${readable.join(',')}}`],
  );
  await em.execute(
    `insert into blog_category_employee (category_id, employee_id)
     select c.id, e.id from blog_category c join employee e on e.id % ? = c.id % ? and e.id <> ?
      where c.id <> all(?::int[]) and e.status = 'ACTIVE'`,
    [nCat, nCat, viewer.id, `{${readable.join(',')}}`],
  );

  await em.execute(
    `insert into blog_tag (content)
     select (?::text[])[1 + (i - 1) % array_length(?::text[], 1)] || case when i > array_length(?::text[], 1) then ((i - 1) / array_length(?::text[], 1) + 1)::text else '' end
       from generate_series(1, ?) i`,
    [sqlArray(TAG_WORDS), sqlArray(TAG_WORDS), sqlArray(TAG_WORDS), sqlArray(TAG_WORDS), nTags],
  );

  // Post i is in category i % nCat; its publish start is i % 900 days before today, so the newest
  // posts of every category (the smallest i) are the ones pinned.
  await em.execute(
    `insert into blog_post (title, content, content_html, category_id, author_id, publish_start, publish_end, is_draft,
                            is_pin, pin_start, pin_end, attachment_key, attachment_name, attachment_type, attachment_size, attachment_thumb_key,
                            created_at, updated_at)
     select t.title, jsonb_build_object('blocks', jsonb_build_array(jsonb_build_object('type', 'paragraph', 'data', jsonb_build_object('text', t.body)))),
            '<p>' || t.body || '</p>', c.ids[1 + i % ?], e.ids[1 + (i * 7919) % array_length(e.ids, 1)],
            s.start, case when i % 50 = 0 then s.start + 30 end, i % 307 = 0,
            s.pinned, case when s.pinned then ?::date - i % 5 end, case when s.pinned then ?::date - i % 5 + i % 9 end,
            case when i % 5 = 0 then 'bench/' || i || '.jpg' when i % 15 = 1 then 'bench/' || i || '.pdf' end,
            case when i % 5 = 0 then '写真' || i || '.jpg' when i % 15 = 1 then '資料' || i || '.pdf' end,
            case when i % 5 = 0 then 'image/jpeg' when i % 15 = 1 then 'application/pdf' end,
            case when i % 5 = 0 or i % 15 = 1 then 40000 + i % 900000 end,
            case when i % 5 = 0 then 'bench/' || i || '-thumb.jpg' end,
            s.start - 1 + time '09:00' + make_interval(mins => i % 480), s.start - 1 + time '09:00' + make_interval(mins => i % 480 + i % 7)
       from generate_series(1, ?) i,
            (select array_agg(id order by id) ids from blog_category) c,
            (select array_agg(id order by id) ids from employee where status = 'ACTIVE') e,
            lateral (select case when i % 211 = 0 then ?::date + 1 + i % 14 else ?::date - i % 900 end as start,
                            i <= ? * ? and i % 211 <> 0 and i % 307 <> 0 as pinned) s,
            lateral (select (?::text[])[1 + i % array_length(?::text[], 1)] || ' #' || i as title,
                            (?::text[])[1 + i % array_length(?::text[], 1)] as body) t`,
    [
      nCat,
      o.today,
      o.today,
      o.posts,
      o.today,
      o.today,
      nCat,
      pinnedPerCategory,
      sqlArray(TITLES),
      sqlArray(TITLES),
      sqlArray(PARAGRAPHS),
      sqlArray(PARAGRAPHS),
    ],
  );
  await em.execute(
    `with t as (select array_agg(id order by id) as ids from blog_tag)
     insert into blog_post_tag (post_id, tag_id)
     select p.id, t.ids[1 + (p.id * 31 + k * 17) % array_length(t.ids, 1)] from blog_post p, t, generate_series(0, 2) k
      where k < p.id % 4 and array_length(t.ids, 1) > 0
     on conflict do nothing`,
  );
  await em.execute(
    `analyze blog_category; analyze blog_category_employee; analyze blog_category_department; analyze blog_tag; analyze blog_post; analyze blog_post_tag`,
  );
  const [n]: { posts: number; thumbs: number; pinned: number }[] = await em.execute(
    `select count(*)::int as posts, count(p.attachment_thumb_key)::int as thumbs,
            count(*) filter (where not p.is_draft and ${SQL.pinnedNow})::int as pinned
       from blog_post p`,
    [o.today, o.today, o.today, o.today],
  );
  return {
    viewerId: viewer.id,
    readable,
    byDepartment,
    byName,
    categories: nCat,
    tags: nTags,
    posts: n!.posts,
    withThumbnail: n!.thumbs,
    pinned: n!.pinned,
  };
}
