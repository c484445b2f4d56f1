import type { Locale } from '../../app/i18n';
import type { NotificationItemFragment } from '../../gql/graphql';

const pad = (n: number) => String(n).padStart(2, '0');
const stamp = (d: Date) =>
  `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** The bell list's words, in its own chunk (not in the first chunk's catalogs). */
export const NOTIFICATION_TEXT = {
  ja: {
    title: '通知',
    readAll: 'すべて既読にする',
    markRead: '既読にする',
    unreadLabel: '未読',
    empty: '通知はありません。',
    more: 'もっと見る',
    loading: '読み込み中',
    loadFailed: '通知を読み込めませんでした。時間をおいて再度お試しください。',
    markFailed: '既読にできませんでした。時間をおいて再度お試しください。',
    someone: '（不明）',
    who: (name: string, others: number) => (others ? `${name}さん他${others}人` : `${name}さん`),
    COMMENT: (who: string, title: string) => `${who}があなたの投稿「${title}」にコメントしました`,
    REPLY: (who: string, title: string) => `${who}があなたのコメントに返信しました（「${title}」）`,
    LIKE: (who: string, title: string) => `${who}があなたの投稿「${title}」にいいねしました`,
    READ_REQUEST: (who: string, title: string) => `${who}が「${title}」の確認をお願いしています`,
    MENTION: (who: string, title: string) => `${who}が「${title}」であなたをメンションしました`,
    profile: {
      COMMENT: (who: string) => `${who}があなたのプロフィールにコメントしました`,
      REPLY: (who: string) => `${who}があなたのコメントに返信しました（プロフィール）`,
      LIKE: (who: string) => `${who}があなたのプロフィールにいいねしました`,
      READ_REQUEST: (who: string) => `${who}から確認の依頼があります`,
      MENTION: (who: string) => `${who}があなたをメンションしました`,
    },
    time: stamp,
  },
  en: {
    title: 'Notifications',
    readAll: 'Mark all as read',
    markRead: 'Mark as read',
    unreadLabel: 'Unread',
    empty: 'No notifications.',
    more: 'Show more',
    loading: 'Loading',
    loadFailed: 'The notifications could not be loaded. Please try again later.',
    markFailed: 'They could not be marked as read. Please try again later.',
    someone: '(unknown)',
    who: (name: string, others: number) => (others ? `${name} and ${others} other${others > 1 ? 's' : ''}` : name),
    COMMENT: (who: string, title: string) => `${who} commented on your post "${title}"`,
    REPLY: (who: string, title: string) => `${who} replied to your comment ("${title}")`,
    LIKE: (who: string, title: string) => `${who} liked your post "${title}"`,
    READ_REQUEST: (who: string, title: string) => `${who} asks you to confirm you read "${title}"`,
    MENTION: (who: string, title: string) => `${who} mentioned you in "${title}"`,
    profile: {
      COMMENT: (who: string) => `${who} commented on your profile`,
      REPLY: (who: string) => `${who} replied to your comment (on a profile)`,
      LIKE: (who: string) => `${who} liked your profile`,
      READ_REQUEST: (who: string) => `${who} asks you to confirm`,
      MENTION: (who: string) => `${who} mentioned you`,
    },
    time: stamp,
  },
} as const satisfies Record<Locale, unknown>;

export type NotificationText = (typeof NOTIFICATION_TEXT)[Locale];

/** One item as a sentence: a group names its newest actor and counts the others (「山田 太郎さん他2人が…」); a post by its title, the profile as 「あなたのプロフィール」. */
export function describe(
  text: NotificationText,
  n: Pick<NotificationItemFragment, 'kind' | 'actor' | 'actorCount' | 'postTitle' | 'profileId'>,
): string {
  const who = text.who(n.actor?.name ?? text.someone, Math.max(0, n.actorCount - 1));
  return n.profileId !== null ? text.profile[n.kind](who) : text[n.kind](who, n.postTitle ?? '');
}
