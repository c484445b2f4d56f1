import { registerEnumType } from 'type-graphql';
import { MASTER_DATA_ROLES, type EmployeeRole } from '../employees/employee.enums.js';

/** Who runs the blog: categories, moderation, and posting in 閲覧-only categories. */
export const BLOG_ADMIN_ROLES: readonly EmployeeRole[] = MASTER_DATA_ROLES;

export const isBlogAdmin = (role: EmployeeRole): boolean => BLOG_ADMIN_ROLES.includes(role);

/**
 * A category's permissions (the spec's list of 書き込み / 閲覧):
 * - READ (閲覧): its members read its posts;
 * - WRITE (書き込み): its members also post in it. Without it only 管理者 and システム管理者 post there.
 * Writing implies reading: a category is always readable by its members.
 */
export enum BlogCategoryPermission {
  WRITE = 'WRITE',
  READ = 'READ',
}

export const PERMISSION_LABEL: Record<BlogCategoryPermission, string> = { WRITE: '書き込み', READ: '閲覧' };

/** Where a post stands for its readers (dates are Asia/Tokyo calendar days, windows inclusive). */
export enum BlogPostState {
  /** Saved unpublished: only its author sees it. */
  DRAFT = 'DRAFT',
  /** Publish start is after today: its author and 管理者/システム管理者 see it, marked so. */
  SCHEDULED = 'SCHEDULED',
  /** Inside its publish window: the members of its category see it. */
  PUBLISHED = 'PUBLISHED',
  /** Publish end is before today: its author and 管理者/システム管理者 see it, marked so. */
  EXPIRED = 'EXPIRED',
}

export const POST_STATE_LABEL: Record<BlogPostState, string> = {
  DRAFT: '下書き',
  SCHEDULED: '公開予定',
  PUBLISHED: '公開中',
  EXPIRED: '公開終了',
};

/** The feed's modes: every post the viewer may read, or only their own (drafts included). Saved arrives with saves (issue 26). */
export enum BlogFeedScope {
  ALL = 'ALL',
  MINE = 'MINE',
  SAVED = 'SAVED',
}

registerEnumType(BlogCategoryPermission, {
  name: 'BlogCategoryPermission',
  description:
    'カテゴリの権限。READ（閲覧）: メンバーが投稿を読める。WRITE（書き込み）: メンバーが投稿もできる（ないときは管理者・システム管理者だけが投稿する）。',
  valuesConfig: { WRITE: { description: '書き込み' }, READ: { description: '閲覧' } },
});
registerEnumType(BlogPostState, {
  name: 'BlogPostState',
  description: '投稿の状態（日付は東京の暦日、期間は両端を含む）',
  valuesConfig: {
    DRAFT: { description: '下書き（作成者だけが見える）' },
    SCHEDULED: { description: '公開予定（公開開始日が未来。作成者と管理者・システム管理者だけが見える）' },
    PUBLISHED: { description: '公開中（カテゴリのメンバーが見える）' },
    EXPIRED: { description: '公開終了（公開終了日を過ぎた。作成者と管理者・システム管理者だけが見える）' },
  },
});
registerEnumType(BlogFeedScope, {
  name: 'BlogFeedScope',
  description: '一覧の範囲',
  valuesConfig: {
    ALL: { description: 'すべて（見られる投稿）' },
    MINE: { description: '自分のブログ（下書き・公開予定・公開終了を含む）' },
    SAVED: { description: '保存したブログ（見られるものだけ）' },
  },
});
