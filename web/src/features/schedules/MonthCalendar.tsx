import { useMemo } from 'react';
import { IconButton } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { addMonths, dayOfMonth, monthMatrix, monthOf, weekdayIndex } from './dates';
import { formatFullDate, formatMonthTitle, weekdayName } from './format';
import styles from './MonthCalendar.module.css';

/**
 * The month calendar (Monday first). Picking a day selects it for the panel and the week grid;
 * days with the viewer's entries carry a dot.
 */
export function MonthCalendar({
  month,
  selected,
  today,
  busyDays,
  onSelect,
  onMonth,
  footer,
}: {
  month: string;
  selected: string;
  today: string;
  busyDays: ReadonlySet<string>;
  onSelect(date: string): void;
  onMonth(month: string): void;
  footer?: React.ReactNode;
}) {
  const t = useT();
  const weeks = useMemo(() => monthMatrix(month), [month]);
  const title = formatMonthTitle(t, month);

  return (
    <section className={styles.calendar} aria-label={t('schedules.calendar.label')} data-testid="month-calendar">
      <div className={styles.head}>
        <IconButton
          icon={ChevronLeftIcon}
          variant="invisible"
          aria-label={t('schedules.calendar.prevMonth')}
          onClick={() => onMonth(addMonths(month, -1))}
        />
        <h2 className={styles.title} aria-live="polite" data-testid="calendar-month">
          {title}
        </h2>
        <IconButton
          icon={ChevronRightIcon}
          variant="invisible"
          aria-label={t('schedules.calendar.nextMonth')}
          onClick={() => onMonth(addMonths(month, 1))}
        />
      </div>
      <table className={styles.grid} aria-label={title}>
        <thead>
          <tr>
            {Array.from({ length: 7 }, (_, i) => (
              <th key={i} scope="col" className={styles.weekday} data-weekday={i}>
                {weekdayName(t, i)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const outside = monthOf(day) !== month;
                const isSelected = day === selected;
                return (
                  <td key={day}>
                    <button
                      type="button"
                      className={styles.day}
                      data-outside={outside || undefined}
                      data-today={day === today || undefined}
                      data-selected={isSelected || undefined}
                      data-weekday={weekdayIndex(day)}
                      data-date={day}
                      aria-label={
                        formatFullDate(t, day) + (busyDays.has(day) ? t('schedules.calendar.hasEntries') : '')
                      }
                      aria-current={day === today ? 'date' : undefined}
                      aria-pressed={isSelected}
                      onClick={() => onSelect(day)}
                    >
                      <span className={styles.num}>{dayOfMonth(day)}</span>
                      <span className={styles.dot} data-on={busyDays.has(day) || undefined} aria-hidden="true" />
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {footer}
    </section>
  );
}
