import { useQuery } from '@apollo/client/react';
import { Spinner, Timeline } from '@primer/react';
import { ArrowSwitchIcon, EyeIcon, PersonIcon, PlusIcon, SignOutIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { FormSection } from '../../components/FormFields';
import { displayDate, displayDateTime, useMasterOptions } from '../../components/master-options';
import type { DeviceKind, DeviceStatus } from '../../gql/graphql';
import { ExportButton } from '../../components/ExportButton';
import { DeviceHistoryQuery } from './device.operations';
import styles from './devices.module.css';

/** Who had the device from when to when, and who changed user, status or location. */
export function DeviceHistory({ kind, id, refreshKey }: { kind: DeviceKind; id: number; refreshKey?: string }) {
  const t = useT();
  const { computerStatuses } = useMasterOptions();
  const { data, loading } = useQuery(DeviceHistoryQuery, {
    variables: { id, kind },
    fetchPolicy: 'no-cache',
    context: { refreshKey },
  });
  const h = data?.deviceHistory;
  const statusLabel = (s: DeviceStatus | null | undefined) =>
    s ? (computerStatuses.find((o) => o.value === s)?.label ?? s) : t('device.none');
  const reasonKey = (r: string, changed: string[]) => {
    if (r === 'revealed') {
      const field = changed[0];
      if (field === 'pinCode' || field === 'pass' || field === 'pinPw')
        return `device.reason.revealed.${field}` as const;
    }
    return r === 'created'
      ? 'device.reason.created'
      : r === 'returned'
        ? 'device.reason.returned'
        : 'device.reason.edit';
  };
  const badge = (r: string) =>
    r === 'created' ? (
      <PlusIcon />
    ) : r === 'returned' ? (
      <SignOutIcon />
    ) : r === 'revealed' ? (
      <EyeIcon />
    ) : (
      <ArrowSwitchIcon />
    );
  return (
    <FormSection title={t('device.history')}>
      <div data-testid="device-history">
        {loading && !h ? (
          <Spinner size="small" />
        ) : !h || (h.assignments.length === 0 && h.changes.length === 0) ? (
          <p className={styles.muted}>{t('device.historyEmpty')}</p>
        ) : (
          <div className={styles.timeline}>
            <div className={styles.historyActions}>
              <ExportButton
                path={`/api/${kind === 'COMPUTER' ? 'computers' : 'smartphone'}/${id}/history/export`}
                params={{}}
                fallbackName={`history_${id}.xlsx`}
              />
            </div>
            <div>
              <h3 className={styles.timelineTitle}>{t('device.assignments')}</h3>
              <Timeline clipSidebar>
                {[...h.assignments].reverse().map((a, i) => (
                  <Timeline.Item key={i} condensed>
                    <Timeline.Badge>
                      <PersonIcon />
                    </Timeline.Badge>
                    <Timeline.Body>
                      <div className={styles.tlMain}>
                        {a.user.name}
                        {a.user.retired ? ` ${t('device.retiredMark')}` : ''}
                      </div>
                      <div>
                        {t('device.period', {
                          from: displayDate(a.from),
                          to: a.to ? displayDate(a.to) : t('device.now'),
                        })}
                      </div>
                      <div className={styles.tlMeta}>
                        {[
                          a.assignedBy ? t('device.assignedBy', { name: a.assignedBy.name }) : null,
                          a.endedBy ? t('device.endedBy', { name: a.endedBy.name }) : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </div>
                    </Timeline.Body>
                  </Timeline.Item>
                ))}
              </Timeline>
            </div>
            <div>
              <h3 className={styles.timelineTitle}>{t('device.changes')}</h3>
              <Timeline clipSidebar>
                {[...h.changes].reverse().map((c) => (
                  <Timeline.Item key={c.id} condensed data-testid="history-change">
                    <Timeline.Badge>{badge(c.reason)}</Timeline.Badge>
                    <Timeline.Body>
                      <div className={styles.tlMain}>
                        {t(reasonKey(c.reason, c.changed))}{' '}
                        <span className={styles.tlMeta}>{displayDateTime(c.changedAt)}</span>
                      </div>
                      {c.changed.includes('currentUser') && (
                        <div>
                          {t('device.change.user', {
                            from: c.fromUser?.name ?? t('device.none'),
                            to: c.toUser?.name ?? t('device.none'),
                          })}
                        </div>
                      )}
                      {c.changed.includes('status') && (
                        <div>
                          {t('device.change.status', { from: statusLabel(c.fromStatus), to: statusLabel(c.toStatus) })}
                        </div>
                      )}
                      {c.changed.includes('location') && (
                        <div>
                          {t('device.change.location', {
                            from: c.fromLocation?.name ?? t('device.none'),
                            to: c.toLocation?.name ?? t('device.none'),
                          })}
                        </div>
                      )}
                      {c.changedBy && (
                        <div className={styles.tlMeta}>
                          {t(c.reason === 'revealed' ? 'device.revealedBy' : 'device.changedBy', {
                            name: c.changedBy.name,
                          })}
                        </div>
                      )}
                    </Timeline.Body>
                  </Timeline.Item>
                ))}
              </Timeline>
            </div>
          </div>
        )}
      </div>
    </FormSection>
  );
}
