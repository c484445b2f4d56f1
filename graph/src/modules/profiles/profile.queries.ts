import type { CurrentUser } from '../auth/session.service.js';
import { EmployeeRole, EmployeeStatus } from '../employees/employee.enums.js';
import type { ListSql } from '../../platform/list-query.js';
import type { RichTextDocument } from '../../lib/rich-text/index.js';
import type { ProfileVisibility } from './profile.fields.js';

/** A profile row as a viewer may see it: address and phone are null where their visibility hides them. */
export interface ProfileRow {
  id: number;
  employee_id: number;
  name: string;
  email: string | null;
  status: EmployeeStatus;
  department_id: number | null;
  department_name: string | null;
  location_name: string | null;
  title: string;
  address: string | null;
  address_visibility: ProfileVisibility;
  phone: string | null;
  phone_visibility: ProfileVisibility;
  skills: string[];
  languages: string[];
  work_experience: string[];
  education: string[];
  about_me: RichTextDocument;
  about_me_html: string;
  hobbies: string;
  talents: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  like_count: number;
  liked_by_me: boolean;
  comment_count: number;
  /** The pictures the profile shows, by kind and position. */
  pictures: { key: string; thumb: string; kind: 'avatar' | 'hobby' | 'talent' | 'header'; w: number; h: number }[];
}

const int = (n: number | null) => {
  if (n === null) return 'null';
  if (!Number.isSafeInteger(n)) throw new Error(`not an id: ${n}`);
  return String(n);
};

/**
 * Whether the viewer may see a personal field whose visibility is in `column`: the owner and 管理者
 * always, everyone for 全社, the owner's department for 部署内. The one place this rule is written;
 * every read of a profile goes through ProfileSql, so the list, the detail, GraphQL, `/api` and the
 * search all hold it (the search never looks in these fields).
 */
export function visibleTo(viewer: CurrentUser, column: string): string {
  if (viewer.role === EmployeeRole.ADMIN) return 'true';
  return `(p.employee_id = ${int(viewer.id)} or ${column} = 'EVERYONE' or (${column} = 'DEPARTMENT' and e.department_id = ${int(viewer.departmentId)}))`;
}

/** The list's and the detail's SELECT of profiles, for one viewer (its ids inlined as checked integers). */
export function profileSql(viewer: CurrentUser): ListSql {
  return {
    table: 'profile p join employee e on e.id = p.employee_id',
    alias: 'p',
    joins: 'left join department d on d.id = e.department_id left join location l on l.id = e.location_id',
    select: `p.id, p.employee_id, e.name, e.email, e.status, e.department_id, d.name as department_name, l.name as location_name, p.title,
      case when ${visibleTo(viewer, 'p.address_visibility')} then p.address end as address, p.address_visibility,
      case when ${visibleTo(viewer, 'p.phone_visibility')} then p.phone end as phone, p.phone_visibility,
      p.skills, p.languages, p.work_experience, p.education, p.about_me, p.about_me_html, p.hobbies, p.talents, p.version, p.created_at, p.updated_at,
      (select count(*)::int from profile_like pl where pl.profile_id = p.id) as like_count,
      exists (select 1 from profile_like pl where pl.profile_id = p.id and pl.employee_id = ${int(viewer.id)}) as liked_by_me,
      (select count(*)::int from profile_comment pc where pc.profile_id = p.id) as comment_count,
      coalesce((select json_agg(json_build_object('key', i.key, 'thumb', i.thumb_key, 'kind', i.kind, 'w', i.width, 'h', i.height) order by i.kind, i.position)
                  from profile_image i where i.profile_id = p.id), '[]') as pictures`,
  };
}
