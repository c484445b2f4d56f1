import type { EntityManager } from '@mikro-orm/postgresql';
import { NotificationKind, notify } from '../../notifications/notification.writes.js';
import type { EmployeeRole } from '../../employees/employee.enums.js';
import { readableOf, type PostRow } from '../blog-post.queries.js';
import { tokyoToday } from '../blog-post.rules.js';
import { mayRead } from '../blog-post.visibility.js';

/** An active member of category `?` (named, or through their current department), over `e` (employee); binds the category twice. */
const MEMBER_OF = `e.status = 'ACTIVE'
  and (e.id in (select employee_id from blog_category_employee where category_id = ?)
       or e.department_id in (select department_id from blog_category_department where category_id = ?))`;

export interface Reader {
  id: number;
  name: string;
  departmentName: string | null;
}

/**
 * The employees a post's confirmation is asked of: the active members of its category (named, or
 * through their current department) whom the one visibility rule lets read it today, its author
 * left out. Named in order of department, then name.
 */
export async function readersOf(em: EntityManager, post: PostRow): Promise<Reader[]> {
  if (post.category_id === null || post.is_draft) return [];
  const rows: { id: number; name: string; department_name: string | null; role: EmployeeRole }[] = await em.execute(
    `select e.id, e.name, d.name as department_name, e.role
       from employee e left join department d on d.id = e.department_id
      where e.id <> ? and ${MEMBER_OF}
      order by d.name nulls last, e.name, e.id`,
    [post.author_id, post.category_id, post.category_id],
  );
  const today = tokyoToday();
  const category = [post.category_id];
  return rows
    .filter((r) => mayRead({ id: r.id, role: r.role }, { readable: category }, readableOf(post), today))
    .map((r) => ({ id: r.id, name: r.name, departmentName: r.department_name }));
}

/**
 * A save that turns the request on (a new post asking for it, or an edit switching it on or
 * publishing a draft that asks) tells every member of the category: the notification stays hidden
 * from each until they may read the post (a scheduled one: from its publish start).
 */
export async function requestReading(tx: EntityManager, before: PostRow | null, after: PostRow): Promise<void> {
  const asked = (p: PostRow | null) => !!p && p.require_confirmation && !p.is_draft && p.category_id !== null;
  if (!asked(after) || (asked(before) && before!.category_id === after.category_id)) return;
  await askReaders(tx, after, await membersOf(tx, after));
}

/** A READ_REQUEST notification to each of `readerIds` from the post's author. */
export async function askReaders(tx: EntityManager, post: PostRow, readerIds: number[]): Promise<void> {
  await notify(
    tx,
    post.author_id,
    readerIds.map((id) => ({ recipientId: id, kind: NotificationKind.READ_REQUEST, postId: post.id })),
  );
}

/** The active members of the post's category, whatever the post's state today (the notifications wait for their visibility). */
async function membersOf(em: EntityManager, post: PostRow): Promise<number[]> {
  const rows: { id: number }[] = await em.execute(`select e.id from employee e where ${MEMBER_OF}`, [post.category_id, post.category_id]);
  return rows.map((r) => r.id);
}
