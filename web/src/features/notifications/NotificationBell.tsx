import { lazy, Suspense, useState } from 'react';
import { useQuery, useSubscription } from '@apollo/client/react';
import { AnchoredOverlay, IconButton, Spinner } from '@primer/react';
import { BellIcon } from '@primer/octicons-react';
import { defineCatalog, useCatalog } from '../../app/i18n';
import { graphql } from '../../gql';
import styles from './notifications.module.css';

const NotificationPanel = lazy(() => import('./NotificationPanel'));

export const NotificationUnreadCountQuery = graphql(`
  query NotificationUnreadCount {
    notificationUnreadCount
  }
`);

const NotificationsChangedSubscription = graphql(`
  subscription NotificationsChanged {
    notificationsChanged {
      unreadCount
      postId
    }
  }
`);

/** The bell's own words (the list's are in its lazy chunk). */
const BELL = defineCatalog({
  ja: { bell: '通知', unread: '通知（未読 {n} 件）', loading: '読み込み中' },
  en: { bell: 'Notifications', unread: 'Notifications ({n} unread)', loading: 'Loading' },
});

/**
 * The header's bell: the unread count as a badge, kept live by notificationsChanged (the server
 * tells the viewer only of their own notifications, and only about posts they may see); the list
 * opens in an overlay loaded on first use.
 */
export function NotificationBell() {
  const tb = useCatalog(BELL);
  const [open, setOpen] = useState(false);
  const { data, refetch } = useQuery(NotificationUnreadCountQuery, { fetchPolicy: 'network-only' });
  const [liveCount, setLiveCount] = useState<number | null>(null);
  // Bumped on every change: an open list reads itself anew.
  const [version, setVersion] = useState(0);
  useSubscription(NotificationsChangedSubscription, {
    onData: ({ data: d }) => {
      const change = d.data?.notificationsChanged;
      if (!change) return;
      setLiveCount(change.unreadCount);
      setVersion((v) => v + 1);
    },
  });
  const unread = liveCount ?? data?.notificationUnreadCount ?? 0;
  const counted = (n: number) => {
    setLiveCount(n);
    void refetch();
  };

  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      align="end"
      overlayProps={{ role: 'dialog', 'aria-label': tb('bell'), className: styles.overlay }}
      focusZoneSettings={{ disabled: true }}
      renderAnchor={(props) => (
        <span className={styles.anchor}>
          <IconButton
            {...props}
            icon={BellIcon}
            variant="invisible"
            tooltipDirection="w"
            aria-label={unread ? tb('unread', { n: unread }) : tb('bell')}
            data-testid="notification-bell"
          />
          {unread > 0 && (
            <span className={styles.badge} aria-hidden="true" data-testid="notification-badge">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </span>
      )}
    >
      <Suspense
        fallback={
          <div className={styles.loading}>
            <Spinner size="small" srText={tb('loading')} />
          </div>
        }
      >
        <NotificationPanel version={version} onCount={counted} onClose={() => setOpen(false)} />
      </Suspense>
    </AnchoredOverlay>
  );
}
