import type { EntityManager } from '@mikro-orm/postgresql';
import { NotificationKind, notify } from '../../notifications/notification.writes.js';
import type { EmployeeRole } from '../../employees/employee.enums.js';
import { readableOf, windowOf, type PostRow } from '../blog-post.queries.js';
import { stateOf, tokyoToday } from '../blog-post.rules.js';
import { BlogPostState } from '../blog.enums.js';
import { mayRead } from '../blog-post.visibility.js';
import { IN_CATEGORY } from '../blog-category.service.js';

/** Whether a post asking for confirmation still takes confirmations: until its pin (速報) window ends. */
export function confirmationOpen(
  p: { requireConfirmation: boolean; isPin: boolean; pinEnd: string | null },
  today = tokyoToday(),
): boolean {
  return p.requireConfirmation && p.isPin && (p.pinEnd === null || p.pinEnd >= today);
}

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
export async function readersOf(em: EntityManager, post: PostRow, today = tokyoToday()): Promise<Reader[]> {
  if (post.category_id === null || post.is_draft) return [];
  const rows: { id: number; name: string; department_name: string | null; role: EmployeeRole }[] = await em.execute(
    `select e.id, e.name, d.name as department_name, e.role
       from employee e left join department d on d.id = e.department_id
      where e.id <> ? and e.status = 'ACTIVE' and ${IN_CATEGORY}
      order by d.name nulls last, e.name, e.id`,
    [post.author_id, post.category_id, post.category_id],
  );
  const category = [post.category_id];
  return rows
    .filter((r) => mayRead({ id: r.id, role: r.role }, { readable: category }, readableOf(post), today))
    .map((r) => ({ id: r.id, name: r.name, departmentName: r.department_name }));
}

/**
 * Asks the post's readers who have not been asked yet (a READ_REQUEST notification each), once the
 * post asks for confirmation and is published today: at the save that publishes it or turns the
 * request on, at the scheduler's firing of its publish start (blog-post.schedule.ts), and at a move
 * to another category (its new readers); never once its pin has ended (confirming is closed). Each
 * reader is asked once; reminders and a reset ask again.
 */
export async function requestReading(tx: EntityManager, post: PostRow, today = tokyoToday()): Promise<void> {
  if (stateOf(windowOf(post), today) !== BlogPostState.PUBLISHED) return;
  if (
    !confirmationOpen(
      { requireConfirmation: post.require_confirmation, isPin: post.is_pin, pinEnd: post.pin_end },
      today,
    )
  )
    return;
  const readers = await readersOf(tx, post, today);
  if (!readers.length) return;
  const done: { id: number }[] = await tx.execute(
    `select recipient_id as id from notification where post_id = ? and kind = 'READ_REQUEST'
     union select employee_id from blog_read_confirmation where post_id = ?`,
    [post.id, post.id],
  );
  const answered = new Set(done.map((r) => r.id));
  await askReaders(
    tx,
    post,
    readers.filter((r) => !answered.has(r.id)).map((r) => r.id),
  );
}

/** A READ_REQUEST notification to each of `readerIds` from the post's author. */
export async function askReaders(tx: EntityManager, post: PostRow, readerIds: number[]): Promise<void> {
  await notify(
    tx,
    post.author_id,
    readerIds.map((id) => ({ recipientId: id, kind: NotificationKind.READ_REQUEST, postId: post.id })),
  );
}
