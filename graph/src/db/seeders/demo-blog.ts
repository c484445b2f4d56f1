import type { EntityManager } from '@mikro-orm/postgresql';
import { renderHtml, type RichTextBlock, type RichTextDocument } from '../../lib/rich-text/index.js';
import type { FileStorage } from '../../lib/files/index.js';
import { BlogAttachments, type StoredAttachment } from '../../modules/blog/blog-post.attachment.js';
import { addDays, tokyoToday } from '../../modules/blog/blog-post.rules.js';
import { DEMO_FILE_NAMES, DEMO_FILES } from './demo-blog-files.js';
import { CATEGORIES, TAGS, type CategoryName } from './demo-blog-categories.js';
import { POSTS, type Seed } from './demo-blog-posts.js';
import { recurring } from './demo-blog-recurring.js';
import { recordRevisions } from '../../modules/blog/revisions/blog-post-revision.writes.js';

function documentOf(body: Seed['body']): RichTextDocument {
  const blocks: RichTextBlock[] = body.map((b) =>
    typeof b === 'string'
      ? { type: 'paragraph', data: { text: b } }
      : 'h' in b
        ? { type: 'header', data: { text: b.h, level: 2 } }
        : {
            type: 'list',
            data: { style: 'unordered', meta: {}, items: b.list.map((content) => ({ content, meta: {}, items: [] })) },
          },
  );
  return { time: 1_764_000_000_000, version: '2.31.0', blocks };
}

/**
 * The demo blog: six categories (社内報 and 総務からのお知らせ for everyone, written by 管理者; 開発ブログ
 * and 営業レポート for their departments; 部活動・サークル for all; 役員 for the managers only), twelve
 * tags and about 60 posts over the past four months, two pinned today, one scheduled and one expired,
 * three with a picture and one with a PDF (stored in `files` when given). Deterministic for a given today.
 */
export async function seedDemoBlog(
  em: EntityManager,
  opts: { files?: FileStorage; today?: string } = {},
): Promise<{ categories: number; tags: number; posts: number; attachments: number }> {
  const today = opts.today ?? tokyoToday();
  const attachments = opts.files ? new BlogAttachments(opts.files) : null;
  let attached = 0;
  const posted: number[] = [];
  const logins: { id: number; login_id: string }[] = await em.execute(
    `select id, login_id from employee where login_id in ('admin', 'sysadmin')`,
  );
  const byLogin = new Map(logins.map((l) => [l.login_id, l.id]));
  const departments: { id: number; name: string }[] = await em.execute(
    `select id, name from department order by sort_order, id`,
  );
  const managers: { id: number }[] = await em.execute(
    `select distinct manager_id as id from department where manager_id is not null`,
  );
  const categoryIds = new Map<CategoryName, number>();
  const writers = new Map<CategoryName, number[]>();
  for (const c of CATEGORIES) {
    const [row]: { id: number }[] = await em.execute(
      `insert into blog_category (name, color, members_may_post, updated_by_id) values (?, ?, ?, ?) returning id`,
      [c.name, c.color, c.membersMayPost, byLogin.get('admin')],
    );
    categoryIds.set(c.name, row!.id);
    const depts =
      c.departments === 'all'
        ? departments
        : c.departments === 'managers'
          ? []
          : departments.filter((d) => (c.departments as readonly string[]).includes(d.name));
    const people =
      c.departments === 'managers'
        ? [...new Set([...managers.map((m) => m.id), byLogin.get('admin')!, byLogin.get('sysadmin')!])]
        : [];
    await em.execute(`insert into blog_category_department (category_id, department_id) select ?, unnest(?::int[])`, [
      row!.id,
      `{${depts.map((d) => d.id).join(',')}}`,
    ]);
    await em.execute(`insert into blog_category_employee (category_id, employee_id) select ?, unnest(?::int[])`, [
      row!.id,
      `{${people.join(',')}}`,
    ]);
    const members: { id: number }[] = await em.execute(
      `select e.id from employee e where e.status = 'ACTIVE' and (e.department_id = any(?::int[]) or e.id = any(?::int[])) order by e.id`,
      [`{${depts.map((d) => d.id).join(',')}}`, `{${people.join(',')}}`],
    );
    writers.set(
      c.name,
      members.map((m) => m.id),
    );
  }
  const tagIds = new Map<string, number>();
  for (const t of TAGS) {
    const [row]: { id: number }[] = await em.execute(
      `insert into blog_tag (content, created_by_id, updated_by_id) values (?, ?, ?) returning id`,
      [t, byLogin.get('admin'), byLogin.get('admin')],
    );
    tagIds.set(t, row!.id);
  }
  const seeds = [...POSTS, ...recurring()];
  for (const [i, s] of seeds.entries()) {
    const pool = writers.get(s.category)!;
    const author = s.by ? byLogin.get(s.by)! : pool[(i * 7) % pool.length]!;
    const publishStart = s.scheduledIn ? addDays(today, s.scheduledIn) : addDays(today, -s.ago);
    const publishEnd = s.endedAgo ? addDays(today, -s.endedAgo) : null;
    const doc = documentOf(s.body);
    const file: StoredAttachment | null =
      s.file && attachments
        ? await attachments.store({ kind: 'upload', name: DEMO_FILE_NAMES[s.file], bytes: await DEMO_FILES[s.file]() })
        : null;
    if (file) attached++;
    const [row]: { id: number }[] = await em.execute(
      `insert into blog_post (title, content, content_html, category_id, author_id, allow_comments, allow_likes, publish_start, publish_end,
                              is_pin, pin_start, pin_end, attachment_key, attachment_name, attachment_type, attachment_size, attachment_thumb_key,
                              created_at, updated_at, updated_by_id)
       values (?, ?::jsonb, ?, ?, ?, ?, true, ?::date, ?::date, ?, ?::date, ?::date, ?, ?, ?, ?, ?, ?::date + time '09:30', ?::date + time '09:30', ?) returning id`,
      [
        s.title,
        JSON.stringify(doc),
        renderHtml(doc),
        categoryIds.get(s.category),
        author,
        !s.noComments,
        publishStart,
        publishEnd,
        s.pin === true,
        s.pin ? addDays(today, -1) : null,
        s.pin ? addDays(today, 5) : null,
        file?.key ?? null,
        file?.name ?? null,
        file?.type ?? null,
        file?.size ?? null,
        file?.thumbKey ?? null,
        addDays(publishStart, s.scheduledIn ? -3 : 0),
        addDays(publishStart, s.scheduledIn ? -3 : 0),
        author,
      ],
    );
    await em.execute(`insert into blog_post_tag (post_id, tag_id) select ?, unnest(?::int[])`, [
      row!.id,
      `{${s.tags.map((t) => tagIds.get(t)!).join(',')}}`,
    ]);
    posted.push(row!.id);
  }
  // Each post's history starts with it as seeded (a save through the service keeps one the same way).
  await recordRevisions(em, posted);
  return { categories: CATEGORIES.length, tags: TAGS.length, posts: seeds.length, attachments: attached };
}
