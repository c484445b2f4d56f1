import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { AppError, badInput, conflict, forbidden } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { fetchPage, fromOf, Where, containsPattern } from '../../platform/list-query.js';
import { execBound, pgTextArray } from '../../platform/sql.js';
import { checkId, checkSearchText } from '../../platform/validation.js';
import { checkPage } from '../../platform/pagination.js';
import type { CurrentUser } from '../auth/session.service.js';
import { EmployeeStatus } from '../employees/employee.enums.js';
import {
  changedValues,
  EMPTY_PROFILE,
  profileNotFound,
  searchTextOf,
  searchWord,
  type ProfileValues,
} from './profile.fields.js';
import { NotificationKind, notify, withdrawLike } from '../notifications/notification.writes.js';
import { profileSql, type ProfileRow } from './profile.queries.js';
import type { Profile, ProfileImage, ProfileLiker, ProfilePage } from './profile.types.js';
import { profileImageUrl, type ProfileImageService } from './profile-image.service.js';

export interface ProfileFilter {
  title?: string | null;
  name?: string | null;
  departmentId?: number | null;
  /** Words looked for in the owner's own text (skills, languages, experience, education, hobbies, talents, about me). */
  q?: string | null;
}

/** How the caller wrote aboutMe: the editor's document (GraphQL) or HTML (`/api`). */
export type AboutMeKind = 'document' | 'html';

/**
 * Employee profiles: every signed-in employee reads every profile (address and phone only within
 * the visibility their owner chose: profile.queries.ts), likes and comments on them; only the owner
 * writes theirs, and not once they have retired (read-only, marked 退職). Each change records its
 * event in the same transaction.
 */
export class ProfileService {
  constructor(private readonly images: ProfileImageService) {}

  async list(ctx: AppContext, filter: ProfileFilter, offset?: unknown, limit?: unknown): Promise<ProfilePage> {
    const viewer = requireUser(ctx);
    const where = new Where()
      .contains('p.title', filter.title, 'title', '役職・肩書き')
      .contains('e.name', filter.name, 'name', '氏名')
      .equals('e.department_id', filter.departmentId, 'departmentId');
    checkSearchText(filter.q, 'q', 'キーワード');
    // Every word must occur (a trigram index serves words of 3 characters and more; shorter ones, such as 簿記, are read from the matching rows).
    for (const word of searchWord(filter.q ?? '')
      .split(/\s+/)
      .filter(Boolean))
      where.add('p.search_text like ?', containsPattern(word));
    const page = await fetchPage<ProfileRow>(ctx.em, profileSql(viewer), where, offset, limit);
    return {
      items: page.rows.map((r) => toProfile(r, viewer)),
      total: page.total,
      offset: page.offset,
      limit: page.limit,
    };
  }

  /** One profile by its id: NOT_FOUND 「プロフィールが見つかりません。」 when there is none. */
  async get(ctx: AppContext, id: number): Promise<Profile> {
    const viewer = requireUser(ctx);
    checkId(id, 'プロフィール');
    const row = await this.row(ctx.em, viewer, 'p.id = ?', id);
    if (!row) throw profileNotFound();
    return toProfile(row, viewer);
  }

  /** The profile of an employee (null when they have none yet); NOT_FOUND when there is no such employee. */
  async ofEmployee(ctx: AppContext, employeeId: number): Promise<Profile | null> {
    const viewer = requireUser(ctx);
    checkId(employeeId, '社員');
    const [known] = await ctx.em.execute(`select 1 from employee where id = ?`, [employeeId]);
    if (!known) throw new AppError('NOT_FOUND', '社員が見つかりません。', { reason: 'EMPLOYEE_NOT_FOUND' });
    const row = await this.row(ctx.em, viewer, 'p.employee_id = ?', employeeId);
    return row ? toProfile(row, viewer) : null;
  }

  /** Creates the caller's own profile (CONFLICT when they have one: update it instead). */
  async create(ctx: AppContext, input: Record<string, unknown>, aboutMe: AboutMeKind): Promise<Profile> {
    const user = requireUser(ctx);
    await this.mayWrite(ctx.em, user);
    const values = changedValues(EMPTY_PROFILE, input, aboutMe);
    const id = await ctx.em.transactional(async (tx) => {
      const [row]: { id: number }[] = await tx.execute(
        `insert into profile (employee_id, ${COLUMNS.join(', ')}, search_text) values (?, ${COLUMNS.map(() => '?').join(', ')}, ?)
         on conflict (employee_id) do nothing returning id`,
        [user.id, ...columnValues(values), searchTextOf(values)],
      );
      if (!row)
        throw conflict('プロフィールはすでにあります。作成ではなく更新してください。', { reason: 'PROFILE_EXISTS' });
      await this.images.bind(tx, user.id, row.id, input);
      record(tx, {
        type: 'profile.saved',
        aggregateId: row.id,
        actorId: user.id,
        payload: { profile: { id: row.id, employeeId: user.id }, created: true, version: 1 },
      });
      await tx.flush();
      return row.id;
    });
    return this.get(ctx, id);
  }

  /**
   * Changes the caller's own profile. `merge` (GraphQL): the fields given replace the stored ones,
   * the others stay. `replace` (`/api`'s PUT): a field left out is cleared, except the two
   * visibilities, which stay (leaving one out must never widen who sees an address or a phone).
   */
  async update(
    ctx: AppContext,
    id: number,
    input: Record<string, unknown>,
    aboutMe: AboutMeKind,
    mode: 'merge' | 'replace' = 'merge',
  ): Promise<Profile> {
    const user = requireUser(ctx);
    checkId(id, 'プロフィール');
    await ctx.em.transactional(async (tx) => {
      const [row]: (ProfileValuesRow & { employee_id: number; version: number })[] = await tx.execute(
        `select * from profile where id = ? for update`,
        [id],
      );
      if (!row) throw profileNotFound();
      if (row.employee_id !== user.id) throw forbidden('プロフィールを編集できるのは本人だけです。');
      await this.mayWrite(tx, user);
      const expected = input.version;
      if (expected !== undefined && expected !== null && !Number.isInteger(expected))
        throw badInput('version は整数で指定してください。', [{ field: 'version', message: '整数' }]);
      if (expected !== undefined && expected !== null && expected !== row.version) {
        throw conflict(
          'ほかの画面でプロフィールが保存されました。最新の内容を確認してから、もう一度保存してください。',
          {
            reason: 'PROFILE_VERSION',
            current: await this.get(ctx, id),
            currentVersion: row.version,
          },
        );
      }
      const given =
        mode === 'merge' ? input : { ...input, ...Object.fromEntries(CLEARED.map((k) => [k, input[k] ?? null])) };
      const values = changedValues(valuesOf(row), given, aboutMe);
      await tx.execute(
        `update profile set ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, search_text = ?, version = version + 1, updated_at = now() where id = ?`,
        [...columnValues(values), searchTextOf(values), id],
      );
      await this.images.bind(tx, user.id, id, given);
      record(tx, {
        type: 'profile.saved',
        aggregateId: id,
        actorId: user.id,
        payload: { profile: { id, employeeId: user.id }, created: false, version: row.version + 1 },
      });
      await tx.flush();
    });
    return this.get(ctx, id);
  }

  /** Sets or clears the caller's like of a profile; true when something changed. */
  async setLike(ctx: AppContext, id: number, on: boolean): Promise<boolean> {
    const user = requireUser(ctx);
    checkId(id, 'プロフィール');
    await ctx.services.writes.count(ctx, user.id, 'like');
    return ctx.em.transactional(async (tx) => {
      const owner = await this.ownerOf(tx, id);
      const changed: unknown[] = on
        ? await tx.execute(
            `insert into profile_like (profile_id, employee_id) values (?, ?) on conflict do nothing returning 1`,
            [id, user.id],
          )
        : await tx.execute(`delete from profile_like where profile_id = ? and employee_id = ? returning 1`, [
            id,
            user.id,
          ]);
      if (!changed.length) return false;
      // The owner hears of a like (never of their own); an unlike takes it back.
      if (on) await notify(tx, user.id, [{ recipientId: owner, kind: NotificationKind.LIKE, profileId: id }]);
      else await withdrawLike(tx, user.id, { profileId: id });
      record(tx, {
        type: 'profile.like_changed',
        aggregateId: id,
        actorId: user.id,
        payload: { profile: { id, employeeId: owner }, employeeId: user.id, liked: on },
      });
      await tx.flush();
      return true;
    });
  }

  /** The spec's toggle: flips the caller's like and returns who likes the profile now, in the order they liked it. */
  async toggleLike(ctx: AppContext, id: number): Promise<number[]> {
    const user = requireUser(ctx);
    checkId(id, 'プロフィール');
    const [liked] = await ctx.em.execute(`select 1 from profile_like where profile_id = ? and employee_id = ?`, [
      id,
      user.id,
    ]);
    await this.setLike(ctx, id, !liked);
    return this.likerIds(ctx.em, id);
  }

  async likerIds(em: EntityManager, id: number): Promise<number[]> {
    const rows: { employee_id: number }[] = await em.execute(
      `select employee_id from profile_like where profile_id = ? order by created_at, employee_id`,
      [id],
    );
    return rows.map((r) => r.employee_id);
  }

  /** A page of who liked a profile (newest first; `likeCount` is the total): name, department, location, status, email from the master data. */
  async likers(ctx: AppContext, id: number, offset?: unknown, limit?: unknown): Promise<ProfileLiker[]> {
    requireUser(ctx);
    checkId(id, 'プロフィール');
    const page = checkPage(offset, limit);
    await this.ownerOf(ctx.em, id);
    const rows = await execBound<{
      id: number;
      name: string;
      department_name: string | null;
      location_name: string | null;
      status: EmployeeStatus;
      email: string | null;
    }>(
      ctx.em,
      `select e.id, e.name, d.name as department_name, l.name as location_name, e.status, e.email
         from profile_like pl join employee e on e.id = pl.employee_id
         left join department d on d.id = e.department_id left join location l on l.id = e.location_id
        where pl.profile_id = ? order by pl.created_at desc, e.id limit ? offset ?`,
      [id, page.limit, page.offset],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      departmentName: r.department_name,
      locationName: r.location_name,
      status: r.status,
      email: r.email,
    }));
  }

  /** A profile's owner (locked against deletion inside a transaction); NOT_FOUND when there is no such profile. */
  async ownerOf(em: EntityManager, id: number): Promise<number> {
    const [row]: { employee_id: number }[] = await em.execute(
      `select employee_id from profile where id = ? ${em.getTransactionContext() ? 'for key share' : ''}`,
      [id],
    );
    if (!row) throw profileNotFound();
    return row.employee_id;
  }

  private async row(
    em: EntityManager,
    viewer: CurrentUser,
    condition: string,
    value: number,
  ): Promise<ProfileRow | undefined> {
    const q = profileSql(viewer);
    const [row] = await execBound<ProfileRow>(em, `select ${q.select} ${fromOf(q)} where ${condition}`, [value]);
    return row;
  }

  /** A retired employee's profile is read-only. */
  private async mayWrite(em: EntityManager, user: CurrentUser): Promise<void> {
    const [e]: { status: EmployeeStatus }[] = await em.execute(`select status from employee where id = ?`, [user.id]);
    if (!e)
      throw badInput('社員情報を確認できませんでした。', [{ field: 'employeeId', message: '社員が見つかりません' }]);
    if (e.status === EmployeeStatus.RETIRED) throw forbidden('退職した社員のプロフィールは変更できません。');
  }
}

/** The fields a replacing save clears when left out (not the visibilities). */
const CLEARED = [
  'title',
  'address',
  'phone',
  'skills',
  'languages',
  'workExperience',
  'education',
  'aboutMe',
  'hobbies',
  'talents',
  'avatar',
  'hobbyImages',
  'talentImages',
  'headerImages',
];

/** The stored columns of ProfileValues, in one order for insert and update. */
const COLUMNS = [
  'title',
  'address',
  'address_visibility',
  'phone',
  'phone_visibility',
  'skills',
  'languages',
  'work_experience',
  'education',
  'about_me',
  'about_me_html',
  'hobbies',
  'talents',
] as const;

function columnValues(v: ProfileValues): unknown[] {
  return [
    v.title,
    v.address,
    v.addressVisibility,
    v.phone,
    v.phoneVisibility,
    pgTextArray(v.skills),
    pgTextArray(v.languages),
    pgTextArray(v.workExperience),
    pgTextArray(v.education),
    JSON.stringify(v.aboutMe),
    v.aboutMeHtml,
    v.hobbies,
    v.talents,
  ];
}

type ProfileValuesRow = Pick<
  ProfileRow,
  | 'title'
  | 'address'
  | 'address_visibility'
  | 'phone'
  | 'phone_visibility'
  | 'skills'
  | 'languages'
  | 'work_experience'
  | 'education'
  | 'about_me'
  | 'about_me_html'
  | 'hobbies'
  | 'talents'
>;

function valuesOf(r: ProfileValuesRow): ProfileValues {
  return {
    title: r.title,
    address: r.address ?? '',
    addressVisibility: r.address_visibility,
    phone: r.phone ?? '',
    phoneVisibility: r.phone_visibility,
    skills: r.skills,
    languages: r.languages,
    workExperience: r.work_experience,
    education: r.education,
    aboutMe: r.about_me,
    aboutMeHtml: r.about_me_html,
    hobbies: r.hobbies,
    talents: r.talents,
  };
}

/** A profile as the viewer sees it: address and phone stay null where the row hid them. */
function toProfile(r: ProfileRow, viewer: CurrentUser): Profile {
  return {
    id: r.id,
    employeeId: r.employee_id,
    name: r.name,
    email: r.email,
    status: r.status,
    departmentId: r.department_id,
    departmentName: r.department_name,
    locationName: r.location_name,
    ...valuesOf(r),
    address: r.address,
    phone: r.phone,
    aboutMe: r.about_me as unknown as Record<string, unknown>,
    ...picturesOf(r.pictures),
    likeCount: r.like_count,
    likedByMe: r.liked_by_me,
    commentCount: r.comment_count,
    canEdit: r.employee_id === viewer.id && r.status === EmployeeStatus.ACTIVE,
    version: r.version,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

function picturesOf(
  pictures: ProfileRow['pictures'],
): Pick<Profile, 'avatar' | 'hobbyImages' | 'talentImages' | 'headerImages'> {
  const of = (kind: ProfileRow['pictures'][number]['kind']): ProfileImage[] =>
    pictures
      .filter((p) => p.kind === kind)
      .map((p) => ({ url: profileImageUrl(p.key), thumbnailUrl: profileImageUrl(p.thumb), width: p.w, height: p.h }));
  return {
    avatar: of('avatar')[0] ?? null,
    hobbyImages: of('hobby'),
    talentImages: of('talent'),
    headerImages: of('header'),
  };
}
