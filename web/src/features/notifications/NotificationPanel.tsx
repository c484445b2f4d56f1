import { profilePath } from '../../app/links';
import { Avatar } from '../../components/Avatar';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, IconButton, Spinner } from '@primer/react';
import { CheckIcon } from '@primer/octicons-react';
import { useI18n } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { graphql } from '../../gql';
import type { NotificationItemFragment } from '../../gql/graphql';
import { NOTIFICATION_TEXT, describe } from './notification-text';
import styles from './notifications.module.css';

graphql(`
  fragment NotificationItem on Notification {
    id
    kind
    postId
    postTitle
    profileId
    commentId
    excerpt
    createdAt
    read
    actorCount
    actor {
      id
      name
    }
  }
`);

const NotificationsQuery = graphql(`
  query Notifications($after: String, $limit: Int = 20) {
    notifications(after: $after, limit: $limit) {
      unreadCount
      nextCursor
      items {
        ...NotificationItem
      }
    }
  }
`);

const MarkNotificationsReadMutation = graphql(`
  mutation MarkNotificationsRead($ids: [Int!]!) {
    markNotificationsRead(ids: $ids)
  }
`);

const MarkAllNotificationsReadMutation = graphql(`
  mutation MarkAllNotificationsRead {
    markAllNotificationsRead
  }
`);

/** Where an item leads: the post in the blog feed's dialog (a comment or reply: with its comment named), or the profile. */
export function placeOf(
  n: Pick<NotificationItemFragment, 'postId' | 'profileId' | 'commentId'>,
  narrow: boolean,
): string {
  if (n.profileId !== null) return profilePath(n.profileId, narrow);
  const q = new URLSearchParams({ post: String(n.postId) });
  if (n.commentId) q.set('comment', String(n.commentId));
  return `${narrow ? '/blog/sp' : '/blog'}?${q}`;
}

/** Items a page holds, and the most one read may ask for (the server's limit). */
const PAGE = 20;
const MAX_READ = 200;

/**
 * The bell's list (its own chunk): newest first, unread marked, each item (a group: a post's likes,
 * its comments, a thread's replies) opening its post (and marking the group read), one mark per item and すべて既読にする; もっと見る on the server's cursor.
 * `version` changes with every live change: the list is read anew, the added pages included.
 */
export default function NotificationPanel({
  version,
  onCount,
  onClose,
}: {
  version: number;
  onCount(n: number): void;
  onClose(): void;
}) {
  const { locale } = useI18n();
  const text = NOTIFICATION_TEXT[locale];
  const narrow = useNarrow();
  const navigate = useNavigate();
  const { data, previousData, loading, error, refetch, fetchMore } = useQuery(NotificationsQuery, {
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const [more, setMore] = useState<{ items: NotificationItemFragment[]; next: string | null } | null>(null);
  const [markRead] = useMutation(MarkNotificationsReadMutation);
  const [markAll, markingAll] = useMutation(MarkAllNotificationsReadMutation);
  const [failed, setFailed] = useState(false);

  // The list read anew from the top (a live change, すべて既読にする): as many items as are shown and a
  // page more (new items push them down; at most the server's 200), so the pages もっと見る added stay.
  const shown = useRef(0);
  const rereadAll = useCallback(
    () => refetch({ limit: Math.min(MAX_READ, shown.current + PAGE) }).then(() => setMore(null)),
    [refetch],
  );
  // The list is read on opening: only changes after that read it anew.
  const openedAt = useRef(version);
  useEffect(() => {
    // A failed read shows through the query's own error.
    if (version !== openedAt.current) void rereadAll().catch(() => undefined);
  }, [version, rereadAll]);

  // While a re-read with a larger limit loads, the list shown so far stays (new variables have no data yet).
  const page = (data ?? previousData)?.notifications;
  const firstIds = new Set(page?.items.map((n) => n.id));
  // Until the re-read's answer replaces them, added pages may repeat items it already holds.
  const items = [
    ...(page?.items ?? []),
    ...(more?.items ?? []).filter((n) => !firstIds.has(n.id)),
  ] as NotificationItemFragment[];
  shown.current = items.length;
  const next = more ? more.next : (page?.nextCursor ?? null);

  const mark = async (ids: number[]) => {
    setFailed(false);
    try {
      const r = await markRead({ variables: { ids } });
      if (r.data) onCount(r.data.markNotificationsRead);
      setMore((m) => m && { ...m, items: m.items.map((n) => (ids.includes(n.id) ? { ...n, read: true } : n)) });
      await refetch();
    } catch {
      setFailed(true);
    }
  };
  const open = (n: NotificationItemFragment) => {
    if (!n.read) void mark([n.id]);
    onClose();
    navigate(placeOf(n, narrow));
  };
  const readAll = async () => {
    setFailed(false);
    try {
      const r = await markAll();
      if (r.data) onCount(r.data.markAllNotificationsRead);
      await rereadAll();
    } catch {
      setFailed(true);
    }
  };
  const loadMore = async () => {
    if (!next) return;
    const r = await fetchMore({ variables: { after: next }, updateQuery: (prev) => prev });
    const got = r.data?.notifications;
    if (got)
      setMore((m) => ({
        items: [...(m?.items ?? []), ...(got.items as NotificationItemFragment[])],
        next: got.nextCursor,
      }));
  };

  return (
    <div className={styles.panel} data-testid="notification-panel" aria-busy={loading || undefined}>
      <div className={styles.panelHead}>
        <h2 className={styles.title}>{text.title}</h2>
        <Button
          size="small"
          variant="invisible"
          onClick={readAll}
          disabled={!page?.unreadCount}
          loading={markingAll.loading}
          data-testid="notification-read-all"
        >
          {text.readAll}
        </Button>
      </div>
      {(error || failed) && <p className={styles.error}>{error ? text.loadFailed : text.markFailed}</p>}
      {loading && !items.length && (
        <div className={styles.loading}>
          <Spinner size="small" srText={text.loading} />
        </div>
      )}
      {!loading && !error && !items.length && <p className={styles.empty}>{text.empty}</p>}
      {items.length > 0 && (
        <ul className={styles.list}>
          {items.map((n) => (
            <li key={n.id} className={styles.item} data-unread={!n.read || undefined} data-testid="notification-item">
              <button type="button" className={styles.itemLink} onClick={() => open(n)}>
                {!n.read && <span className={styles.dot} aria-label={text.unreadLabel} role="img" />}
                {n.actor && <Avatar name={n.actor.name} employeeId={n.actor.id} size={28} />}
                <span className={styles.itemText}>
                  <span className={styles.message}>{describe(text, n)}</span>
                  {n.excerpt && <span className={styles.excerpt}>{n.excerpt}</span>}
                  <span className={styles.time}>{text.time(new Date(n.createdAt))}</span>
                </span>
              </button>
              {!n.read && (
                <IconButton
                  icon={CheckIcon}
                  size="small"
                  variant="invisible"
                  aria-label={text.markRead}
                  onClick={() => void mark([n.id])}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {next && (
        <div className={styles.more}>
          <Button size="small" onClick={() => void loadMore()}>
            {text.more}
          </Button>
        </div>
      )}
    </div>
  );
}
