import { memo } from 'react';
import { PlusIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import type { ScheduleCellFieldsFragment, ScheduleGridQuery } from '../../gql/graphql';
import { covers, dayOfMonth, monthNumber, weekdayIndex } from './dates';
import { EntryChip } from './EntryChip';
import { formatFullDate, weekdayName } from './format';
import styles from './WeekGrid.module.css';
import { Avatar } from '../../components/Avatar';

type Person = ScheduleGridQuery['scheduleGrid']['people'][number];

/**
 * People × days, Monday to Sunday. An entry opens its detail; the free part of a cell creates an
 * entry for that person and day.
 */
export function WeekGrid({
  days,
  people,
  me,
  today,
  selected,
  onCreate,
  onOpen,
  onSelectDay,
  busy,
}: {
  days: string[];
  people: Person[];
  me: number;
  today: string;
  selected: string;
  onCreate(person: { id: number; name: string }, day: string): void;
  onOpen(entry: ScheduleCellFieldsFragment): void;
  onSelectDay(day: string): void;
  busy?: boolean;
}) {
  const t = useT();
  return (
    <div className={styles.scroller} data-busy={busy || undefined}>
      <table className={styles.grid} data-testid="week-grid">
        <colgroup>
          <col className={styles.nameCol} />
          {days.map((d) => (
            <col key={d} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className={styles.corner}>
              {t('schedules.grid.member')}
            </th>
            {days.map((d) => (
              <th
                key={d}
                scope="col"
                className={styles.dayHead}
                data-weekday={weekdayIndex(d)}
                data-today={d === today || undefined}
                data-selected={d === selected || undefined}
                data-date={d}
              >
                <button
                  type="button"
                  className={styles.dayButton}
                  onClick={() => onSelectDay(d)}
                  aria-pressed={d === selected}
                  aria-current={d === today ? 'date' : undefined}
                  title={d === today ? t('schedules.today') : formatFullDate(t, d)}
                >
                  {/* The name is the visible text (WCAG 2.5.3: a voice user says what they see). */}
                  <span className={styles.dayNum}>
                    {monthNumber(d)}/{dayOfMonth(d)}
                  </span>
                  <span className={styles.dayName}>{weekdayName(t, weekdayIndex(d))}</span>
                  {d === today && <span className={styles.visuallyHidden}>{t('schedules.today')}</span>}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <PersonRow
              key={p.id}
              person={p}
              days={days}
              isMe={p.id === me}
              today={today}
              onCreate={onCreate}
              onOpen={onOpen}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const PersonRow = memo(function PersonRow({
  person,
  days,
  isMe,
  today,
  onCreate,
  onOpen,
}: {
  person: Person;
  days: string[];
  isMe: boolean;
  today: string;
  onCreate(person: { id: number; name: string }, day: string): void;
  onOpen(entry: ScheduleCellFieldsFragment): void;
}) {
  const t = useT();
  return (
    <tr
      className={styles.row}
      data-me={isMe || undefined}
      data-testid="grid-row"
      data-person-id={person.id}
      data-person-name={person.name}
    >
      <th scope="row" className={styles.person}>
        <span className={styles.personName}>
          <Avatar name={person.name} employeeId={person.id} size={20} />
          {person.name}
          {isMe && <span className={styles.meTag}>{t('schedules.grid.you')}</span>}
        </span>
        {person.departmentName && <span className={styles.dept}>{person.departmentName}</span>}
      </th>
      {days.map((d) => {
        const entries = person.entries.filter((e) => covers(e, d));
        return (
          <td
            key={d}
            className={styles.cell}
            data-weekday={weekdayIndex(d)}
            data-today={d === today || undefined}
            data-date={d}
            data-testid="grid-cell"
            // Anywhere free in the cell creates (the button below is the keyboard way in).
            onClick={(e) => {
              if (!(e.target as Element).closest('button, [data-testid="entry-busy"]'))
                onCreate({ id: person.id, name: person.name }, d);
            }}
          >
            <div className={styles.cellInner}>
              {entries.map((e) => (
                <EntryChip
                  key={e.id}
                  entry={e}
                  day={d}
                  onOpen={onOpen}
                  declined={isMe && e.myResponse === 'DECLINED'}
                />
              ))}
              <button
                type="button"
                className={styles.add}
                data-empty={entries.length === 0 || undefined}
                aria-label={t('schedules.grid.addFor', { name: person.name, date: formatFullDate(t, d) })}
                data-testid="grid-add"
                onClick={() => onCreate({ id: person.id, name: person.name }, d)}
              >
                <PlusIcon size={12} aria-hidden="true" />
              </button>
            </div>
          </td>
        );
      })}
    </tr>
  );
});
