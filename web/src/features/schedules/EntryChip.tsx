import { LockIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import type { ScheduleCellFieldsFragment } from '../../gql/graphql';
import { formatTimeRange, typeLabel } from './format';
import styles from './EntryChip.module.css';

/**
 * One entry in a grid cell or a day list: time and title, coloured by type. Others' private
 * entries are a grey "予定あり" block that shows no details and does not open. `declined`: the row's
 * person declined it (only the viewer's own row can say so): dimmed, not struck through.
 */
export function EntryChip({
  entry,
  day,
  onOpen,
  layout = 'stack',
  declined = false,
}: {
  entry: ScheduleCellFieldsFragment;
  day: string;
  onOpen(e: ScheduleCellFieldsFragment): void;
  layout?: 'stack' | 'line';
  declined?: boolean;
}) {
  const t = useT();
  const time = formatTimeRange(t, entry, day);
  if (entry.busyOnly) {
    return (
      <div
        className={styles.chip}
        data-kind="busy"
        data-layout={layout}
        data-testid="entry-busy"
        title={`${time} ${t('schedules.busy')}`}
      >
        <span className={styles.time}>{time}</span>
        <span className={styles.title}>
          <LockIcon size={12} aria-hidden="true" /> {t('schedules.busy')}
        </span>
      </div>
    );
  }
  return (
    <button
      type="button"
      className={styles.chip}
      data-kind={entry.type ?? 'TASK'}
      data-layout={layout}
      data-declined={declined || undefined}
      data-testid="entry"
      data-schedule-id={entry.id}
      title={`${t('schedules.fmt.entryTooltip', { time, title: entry.title ?? '', type: typeLabel(t, entry.type) })}${declined ? ` ${t('schedules.fmt.parenthesized', { text: t('schedules.response.declined') })}` : ''}`}
      onClick={(e) => {
        e.stopPropagation();
        onOpen(entry);
      }}
    >
      <span className={styles.time}>
        {time}
        {declined && <span className={styles.declinedTag}>{t('schedules.response.declined')}</span>}
      </span>
      <span className={styles.title}>
        {entry.isPrivate && <LockIcon size={12} aria-label={t('schedules.private')} />}
        {entry.title}
      </span>
    </button>
  );
}
