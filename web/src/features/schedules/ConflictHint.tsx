import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { AlertIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { formatDayWithWeekday, formatTimeRange } from './format';
import { ScheduleConflictsQuery } from './operations';
import styles from './ScheduleDialog.module.css';

/**
 * A warning (never blocking) listing attendees already busy in the chosen slot, asked again a
 * moment after the date, times or attendees change.
 */
export function ConflictHint({
  className,
  ...props
}: {
  className?: string;
  employeeIds: number[];
  date: string;
  endDate: string;
  isAllDay: boolean;
  startTime: string;
  endTime: string;
  excludeId?: number;
}) {
  const t = useT();
  const key = JSON.stringify(props);
  const [settled, setSettled] = useState(props);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as typeof props), 350);
    return () => clearTimeout(timer);
  }, [key]);

  const valid =
    !!settled.date &&
    settled.endDate >= settled.date &&
    (settled.isAllDay || settled.endDate > settled.date || settled.endTime > settled.startTime) &&
    settled.employeeIds.length > 0;
  const { data } = useQuery(ScheduleConflictsQuery, {
    skip: !valid,
    fetchPolicy: 'network-only',
    variables: {
      employeeIds: settled.employeeIds,
      date: settled.date,
      endDate: settled.endDate,
      isAllDay: settled.isAllDay,
      startTime: settled.isAllDay ? null : settled.startTime,
      endTime: settled.isAllDay ? null : settled.endTime,
      excludeId: settled.excludeId ?? null,
    },
  });
  const list = valid
    ? [...(data?.scheduleConflicts ?? [])].sort((a, b) =>
        (a.date + (a.startTime ?? '')).localeCompare(b.date + (b.startTime ?? '')),
      )
    : [];
  if (list.length === 0) return null;
  const names = [...new Set(list.map((c) => c.employeeName))];

  return (
    <div className={`${styles.conflicts} ${className ?? ''}`} role="status" data-testid="conflict-hint">
      <div className={styles.conflictsHead}>
        <AlertIcon size={16} />
        <strong>{t('schedules.conflictHint.title', { names: names.join(t('schedules.listSeparator')) })}</strong>
      </div>
      <ul className={styles.conflictList}>
        {list.slice(0, 6).map((c) => (
          <li key={`${c.employeeId}-${c.scheduleId}`}>
            <span className={styles.conflictWho}>{c.employeeName}</span>
            <span className={styles.conflictWhen}>
              {c.date !== settled.date && `${formatDayWithWeekday(t, c.date)} `}
              {formatTimeRange(t, {
                date: c.date,
                endDate: c.date,
                isAllDay: !c.startTime,
                startTime: c.startTime,
                endTime: c.endTime,
              })}
            </span>
            <span className={styles.conflictTitle}>{c.title}</span>
          </li>
        ))}
        {list.length > 6 && (
          <li className={styles.conflictMore}>{t('schedules.conflictHint.more', { count: list.length - 6 })}</li>
        )}
      </ul>
      <p className={styles.conflictNote}>{t('schedules.conflictHint.note')}</p>
    </div>
  );
}
