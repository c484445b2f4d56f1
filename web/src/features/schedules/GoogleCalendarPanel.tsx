import { displayDateTime } from '../../components/master-options';
import { useState } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Checkbox, IconButton, Label, TextInput } from '@primer/react';
import { CheckIcon, CopyIcon, LinkExternalIcon, SyncIcon } from '@primer/octicons-react';
import { useI18n } from '../../app/i18n';
import { CheckboxField } from '../../components/Field';
import { describeError } from './errors';
import {
  DisconnectGoogleCalendarMutation,
  GoogleCalendarConnectUrlQuery,
  GoogleCalendarStatusQuery,
  RegenerateIcsFeedMutation,
  RevokeIcsFeedMutation,
  SetIcsFeedShowPrivateDetailsMutation,
  SyncGoogleCalendarMutation,
} from './operations';
import styles from './GoogleCalendarPanel.module.css';

/** Google Calendar status, connect / disconnect, and the ICS subscription URL. */
export default function GoogleCalendarPanel({ syncFailed, month }: { syncFailed: boolean; month: string }) {
  const { t, locale } = useI18n();
  const client = useApolloClient();
  const { data, loading } = useQuery(GoogleCalendarStatusQuery, { fetchPolicy: 'cache-and-network' });
  const [disconnect, disconnecting] = useMutation(DisconnectGoogleCalendarMutation);
  const [sync, syncing] = useMutation(SyncGoogleCalendarMutation);
  const [regenerate, regenerating] = useMutation(RegenerateIcsFeedMutation);
  const [revoke, revoking] = useMutation(RevokeIcsFeedMutation);
  const [setShowPrivate, settingShowPrivate] = useMutation(SetIcsFeedShowPrivateDetailsMutation);
  const [connecting, setConnecting] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'ok'; text: string } | null>(null);
  const [feedUrl, setFeedUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);

  const status = data?.googleCalendarStatus;
  const feedEnabled = data?.icsFeedEnabled ?? false;
  const showPrivateDetails = data?.icsFeedSettings.showPrivateDetails ?? false;
  const when = (iso: string | null | undefined) => (iso ? displayDateTime(iso) : t('schedules.google.never')); // one timestamp format in the whole app

  const fail = (err: unknown) => setMessage({ tone: 'error', text: describeError(err, locale, t).message });

  const connect = async () => {
    setConnecting(true);
    setMessage(null);
    try {
      const { data: res } = await client.query({ query: GoogleCalendarConnectUrlQuery, fetchPolicy: 'network-only' });
      if (res?.googleCalendarConnectUrl) window.location.assign(res.googleCalendarConnectUrl);
      else setConnecting(false);
    } catch (err) {
      setConnecting(false);
      fail(err);
    }
  };

  const setStatus = (s: NonNullable<typeof status>) =>
    client.cache.updateQuery({ query: GoogleCalendarStatusQuery }, (d) => (d ? { ...d, googleCalendarStatus: s } : d));

  const onDisconnect = async () => {
    setMessage(null);
    try {
      const { data: res } = await disconnect();
      if (res) setStatus(res.disconnectGoogleCalendar);
      setConfirmDisconnect(false);
      setMessage({ tone: 'ok', text: t('schedules.google.disconnected') });
    } catch (err) {
      fail(err);
    }
  };

  const onSync = async () => {
    setMessage(null);
    try {
      const { data: res } = await sync({ variables: { month } });
      if (res) setStatus(res.syncGoogleCalendar);
      setMessage({ tone: 'ok', text: t('schedules.google.syncRequested') });
    } catch (err) {
      fail(err);
    }
  };

  const onRegenerate = async () => {
    setMessage(null);
    setCopied(false);
    try {
      const { data: res } = await regenerate();
      if (res) {
        setFeedUrl(res.regenerateIcsFeed.url);
        client.cache.updateQuery({ query: GoogleCalendarStatusQuery }, (d) =>
          d ? { ...d, icsFeedEnabled: true, icsFeedSettings: { ...d.icsFeedSettings, enabled: true } } : d,
        );
      }
    } catch (err) {
      fail(err);
    }
  };

  const onRevoke = async () => {
    setMessage(null);
    try {
      await revoke();
      setFeedUrl(null);
      client.cache.updateQuery({ query: GoogleCalendarStatusQuery }, (d) =>
        d
          ? {
              ...d,
              icsFeedEnabled: false,
              icsFeedSettings: { ...d.icsFeedSettings, enabled: false, showPrivateDetails: false },
            }
          : d,
      );
      setMessage({ tone: 'ok', text: t('schedules.ics.revoked') });
    } catch (err) {
      fail(err);
    }
  };

  const onShowPrivate = async (show: boolean) => {
    setMessage(null);
    try {
      const { data: res } = await setShowPrivate({ variables: { show } });
      if (res)
        client.cache.updateQuery({ query: GoogleCalendarStatusQuery }, (d) =>
          d ? { ...d, icsFeedSettings: res.setIcsFeedShowPrivateDetails } : d,
        );
    } catch (err) {
      fail(err);
    }
  };

  const copy = async () => {
    if (!feedUrl) return;
    try {
      await navigator.clipboard.writeText(feedUrl);
      setCopied(true);
    } catch {
      setMessage({ tone: 'error', text: t('schedules.ics.copyFailed') });
    }
  };

  if (!data && loading) return null;

  return (
    <div className={styles.panel} data-testid="google-panel">
      <section className={styles.section}>
        <div className={styles.sectionHead}>
          <h2 className={styles.heading}>{t('schedules.google.title')}</h2>
          {status && (
            <Label variant={!status.connected ? 'secondary' : status.lastError || syncFailed ? 'danger' : 'success'}>
              {!status.connected
                ? t('schedules.google.notConnected')
                : status.lastError || syncFailed
                  ? t('schedules.google.syncProblem')
                  : t('schedules.google.connected')}
            </Label>
          )}
        </div>
        {status && !status.enabled ? (
          <p className={styles.muted}>{t('schedules.google.unavailable')}</p>
        ) : status && status.connected ? (
          <>
            <dl className={styles.facts}>
              {status.email && (
                <>
                  <dt>{t('schedules.google.account')}</dt>
                  <dd>{status.email}</dd>
                </>
              )}
              <dt>{t('schedules.google.lastSuccess')}</dt>
              <dd>{when(status.lastSuccessAt)}</dd>
              {status.pending && (
                <>
                  <dt>{t('schedules.google.pending')}</dt>
                  <dd>
                    {status.pendingChanges > 0
                      ? t('schedules.google.pendingChanges', { count: status.pendingChanges })
                      : t('schedules.google.pendingSync')}
                  </dd>
                </>
              )}
              {(status.lastError || syncFailed) && (
                <>
                  <dt>{t('schedules.google.lastError')}</dt>
                  <dd className={styles.error}>
                    {status.lastError ?? t('schedules.google.syncRequestFailed')}
                    {status.lastErrorAt && (
                      <span className={styles.muted}>
                        {' '}
                        {t('schedules.fmt.parenthesized', { text: when(status.lastErrorAt) })}
                      </span>
                    )}
                  </dd>
                </>
              )}
            </dl>
            {confirmDisconnect ? (
              <div className={styles.confirm}>
                <p>{t('schedules.google.disconnectConfirm')}</p>
                <div className={styles.actions}>
                  <Button size="small" onClick={() => setConfirmDisconnect(false)}>
                    {t('schedules.no')}
                  </Button>
                  <Button
                    size="small"
                    variant="danger"
                    onClick={() => void onDisconnect()}
                    loading={disconnecting.loading}
                  >
                    {t('schedules.google.disconnect')}
                  </Button>
                </div>
              </div>
            ) : (
              <div className={styles.actions}>
                <Button size="small" leadingVisual={SyncIcon} onClick={() => void onSync()} loading={syncing.loading}>
                  {t('schedules.google.syncNow')}
                </Button>
                <Button size="small" variant="danger" onClick={() => setConfirmDisconnect(true)}>
                  {t('schedules.google.disconnect')}
                </Button>
              </div>
            )}
          </>
        ) : (
          <>
            <p className={styles.muted}>{t('schedules.google.connectLead')}</p>
            <div className={styles.actions}>
              <Button
                size="small"
                variant="primary"
                trailingVisual={LinkExternalIcon}
                onClick={() => void connect()}
                loading={connecting}
              >
                {t('schedules.google.connect')}
              </Button>
            </div>
          </>
        )}
      </section>

      <section className={styles.section}>
        <div className={styles.sectionHead}>
          <h2 className={styles.heading}>{t('schedules.ics.title')}</h2>
          <Label variant={feedEnabled ? 'success' : 'secondary'}>
            {feedEnabled ? t('schedules.ics.enabled') : t('schedules.ics.disabled')}
          </Label>
        </div>
        <p className={styles.muted}>{t('schedules.ics.lead')}</p>
        {feedUrl ? (
          <div className={styles.urlRow}>
            <TextInput
              value={feedUrl}
              readOnly
              aria-label={t('schedules.ics.url')}
              onFocus={(e) => e.target.select()}
              className={styles.url}
              data-testid="ics-url"
              size="small"
            />
            <IconButton
              icon={copied ? CheckIcon : CopyIcon}
              aria-label={copied ? t('schedules.ics.copied') : t('schedules.ics.copy')}
              onClick={() => void copy()}
              size="small"
            />
          </div>
        ) : (
          feedEnabled && <p className={styles.note}>{t('schedules.ics.hiddenUrl')}</p>
        )}
        {feedUrl && <p className={styles.note}>{t('schedules.ics.shownOnce')}</p>}
        {feedEnabled && (
          <CheckboxField label={t('schedules.ics.showPrivate')} caption={t('schedules.ics.showPrivateCaption')}>
            {(c) => (
              <Checkbox
                {...c}
                checked={showPrivateDetails}
                disabled={settingShowPrivate.loading}
                onChange={(e) => void onShowPrivate(e.target.checked)}
                data-testid="ics-show-private"
              />
            )}
          </CheckboxField>
        )}
        <div className={styles.actions}>
          <Button size="small" onClick={() => void onRegenerate()} loading={regenerating.loading}>
            {feedEnabled ? t('schedules.ics.regenerate') : t('schedules.ics.create')}
          </Button>
          {feedEnabled && (
            <Button size="small" variant="danger" onClick={() => void onRevoke()} loading={revoking.loading}>
              {t('schedules.ics.revoke')}
            </Button>
          )}
        </div>
      </section>

      {message && (
        <p className={styles.message} data-tone={message.tone} role="status">
          {message.text}
        </p>
      )}
    </div>
  );
}
