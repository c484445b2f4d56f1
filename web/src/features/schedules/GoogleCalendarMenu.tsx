import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { AnchoredOverlay, Button, IconButton, Spinner } from '@primer/react';
import { CalendarIcon, TriangleDownIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { GoogleCalendarStatusQuery, SyncGoogleCalendarMutation } from './operations';
import styles from './GoogleCalendarMenu.module.css';

const GoogleCalendarPanel = lazy(() => import('./GoogleCalendarPanel'));

/**
 * The schedule header's Google Calendar menu. While connected, the shown month is synced when the
 * screen opens and whenever the month changes; a failure is only a small status, never blocking.
 */
export function GoogleCalendarMenu({ month, compact }: { month: string; compact?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const { data } = useQuery(GoogleCalendarStatusQuery);
  const [sync] = useMutation(SyncGoogleCalendarMutation);
  const [syncFailed, setSyncFailed] = useState(false);
  const status = data?.googleCalendarStatus;
  const connected = !!status?.connected;
  const lastSynced = useRef<string | null>(null);

  useEffect(() => {
    if (!connected || lastSynced.current === month) return;
    lastSynced.current = month;
    sync({ variables: { month } }).then(
      () => setSyncFailed(false),
      () => setSyncFailed(true),
    );
  }, [connected, month, sync]);

  const problem = syncFailed || !!status?.lastError;
  const stateText = !status
    ? ''
    : !connected
      ? t('schedules.google.notConnected')
      : problem
        ? t('schedules.google.syncProblem')
        : t('schedules.google.connected');

  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      align="end"
      overlayProps={{ role: 'dialog', 'aria-label': t('schedules.google.title'), className: styles.overlay }}
      focusZoneSettings={{ disabled: true }}
      renderAnchor={(props) =>
        compact ? (
          <IconButton
            {...props}
            icon={CalendarIcon}
            aria-label={`${t('schedules.google.title')}: ${stateText}`}
            variant="default"
            data-testid="google-menu"
          />
        ) : (
          <Button {...props} leadingVisual={CalendarIcon} trailingVisual={TriangleDownIcon} data-testid="google-menu">
            <span className={styles.anchorText}>
              {t('schedules.google.title')}
              {status && (
                <span
                  className={styles.dot}
                  data-state={!connected ? 'off' : problem ? 'error' : 'on'}
                  aria-label={stateText}
                  role="img"
                />
              )}
            </span>
          </Button>
        )
      }
    >
      <div className={styles.panel}>
        <Suspense
          fallback={
            <div className={styles.loading}>
              <Spinner size="small" srText={t('common.loading')} />
            </div>
          }
        >
          <GoogleCalendarPanel syncFailed={syncFailed} month={month} />
        </Suspense>
      </div>
    </AnchoredOverlay>
  );
}
