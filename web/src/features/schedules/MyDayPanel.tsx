import { useQuery } from '@apollo/client/react';
import { Button, Label, Spinner } from '@primer/react';
import { LockIcon, PlusIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import type { ScheduleFieldsFragment } from '../../gql/graphql';
import { hhmm } from './dates';
import { formatDayWithWeekday, responseLabel, typeLabel } from './format';
import { MySchedulesQuery } from './operations';
import styles from './MyDayPanel.module.css';

/** "My schedule" for the chosen day: start, end, title; an add button. */
export function MyDayPanel({
  date,
  onAdd,
  onOpen,
}: {
  date: string;
  onAdd(): void;
  onOpen(s: ScheduleFieldsFragment): void;
}) {
  const t = useT();
  const { data, loading, error, refetch } = useQuery(MySchedulesQuery, {
    variables: { date },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.mySchedules ?? [];

  return (
    <section className={styles.panel} aria-labelledby="my-day-title" data-testid="my-day-panel">
      <div className={styles.head}>
        <div className={styles.headText}>
          <h2 id="my-day-title" className={styles.title}>
            {t('schedules.mine.title')}
          </h2>
          <span className={styles.date} data-testid="my-day-date">
            {formatDayWithWeekday(t, date)}
          </span>
        </div>
        <Button leadingVisual={PlusIcon} size="small" onClick={onAdd} data-testid="my-day-add">
          {t('schedules.mine.add')}
        </Button>
      </div>
      <div className={styles.body}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col" className={styles.time}>
                {t('schedules.mine.start')}
              </th>
              <th scope="col" className={styles.time}>
                {t('schedules.mine.end')}
              </th>
              <th scope="col">{t('schedules.mine.subject')}</th>
            </tr>
          </thead>
          <tbody>
            {loading && !data ? (
              <tr>
                <td colSpan={3} className={styles.empty}>
                  <Spinner size="small" srText={t('common.loading')} />
                </td>
              </tr>
            ) : error && !data ? (
              <tr>
                <td colSpan={3} className={styles.empty}>
                  {t('schedules.loadFailed')}{' '}
                  <Button variant="link" onClick={() => void refetch()}>
                    {t('schedules.retry')}
                  </Button>
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={3} className={styles.empty} data-testid="my-day-empty">
                  {t('schedules.mine.empty')}
                </td>
              </tr>
            ) : (
              rows.map((s) => {
                const allDay = s.isAllDay || (s.date !== s.endDate && s.date !== date && s.endDate !== date);
                return (
                  <tr key={s.id} className={styles.row} onClick={() => onOpen(s)} data-testid="my-day-row">
                    <td className={styles.time}>
                      {allDay ? t('schedules.allDay') : s.date === date ? hhmm(s.startTime) : '—'}
                    </td>
                    <td className={styles.time}>{allDay ? '' : s.endDate === date ? hhmm(s.endTime) : '—'}</td>
                    <td>
                      <button
                        type="button"
                        className={styles.subject}
                        onClick={(e) => (e.stopPropagation(), onOpen(s))}
                      >
                        {s.isPrivate && <LockIcon size={12} aria-label={t('schedules.private')} />}
                        <span className={styles.subjectText}>{s.title}</span>
                      </button>
                      <span className={styles.meta}>
                        <Label
                          size="small"
                          variant={s.type === 'REMOTE' ? 'success' : s.type === 'APPOINTMENT' ? 'done' : 'accent'}
                        >
                          {typeLabel(t, s.type)}
                        </Label>
                        {s.myResponse && (
                          <Label
                            size="small"
                            variant={
                              s.myResponse === 'ACCEPTED'
                                ? 'success'
                                : s.myResponse === 'DECLINED'
                                  ? 'secondary'
                                  : 'attention'
                            }
                          >
                            {responseLabel(t, s.myResponse)}
                          </Label>
                        )}
                      </span>
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
