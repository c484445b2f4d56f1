import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, CounterLabel, IconButton } from '@primer/react';
import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, ChevronUpIcon, PlusIcon } from '@primer/octicons-react';
import type { PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { CenteredSpinner } from '../../components/CenteredStatus';
import { Pager, usePagerLabels } from '../../components/Pager';
import type { ScheduleCellFieldsFragment, ScheduleGridQuery as GridData } from '../../gql/graphql';
import { addDays } from './dates';
import { EntryChip } from './EntryChip';
import { Filters } from './Filters';
import { formatFullDate } from './format';
import { GoogleCalendarMenu } from './GoogleCalendarMenu';
import { useScheduleLive } from './live';
import { MonthCalendar } from './MonthCalendar';
import { MyDayPanel } from './MyDayPanel';
import { ScheduleGridQuery } from './operations';
import { ScheduleDialogHost, usePreloadDialog } from './ScheduleDialogHost';
import { ToastHost } from '../../components/Toast';
import { useMonthMarkers } from './use-month-markers';
import { useScheduleScreen } from './use-schedule-screen';
import { useShownValue } from './use-shown-value';
import styles from './SchedulesSpPage.module.css';

const PAGE_SIZE = 100;

/** /schedules/sp: calendar, my day, and who has what on the chosen day (collapsible per person). */
export default function SchedulesSpPage(_: { def: PageDef; id?: string }) {
  const t = useT();
  return (
    <>
      <ToastHost closeLabel={t('schedules.toast.close')} />
      <NarrowSchedules />
    </>
  );
}

function NarrowSchedules() {
  const t = useT();
  const title = t('page.schedules');
  useDocumentTitle(title);
  usePreloadDialog();
  const s = useScheduleScreen();
  const [page, setPage] = useState(0);
  const pagerLabels = usePagerLabels();
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());

  const dayVars = useMemo(
    () => ({
      from: s.selected,
      to: s.selected,
      departmentId: s.departmentId,
      name: s.name.trim() || null,
      offset: page * PAGE_SIZE,
      limit: PAGE_SIZE,
    }),
    [s.selected, s.departmentId, s.name, page],
  );
  const grid = useQuery(ScheduleGridQuery, { variables: dayVars, fetchPolicy: 'cache-and-network' });
  // The member list renders in the background (in slices) when an answer arrives: with a hundred
  // people it is the largest render of the screen.
  const shown = useDeferredValue(grid.data ?? grid.previousData);
  // The pager names the rows on screen: while the next page loads, the previous one stays, and so does its range.
  const shownPage = useShownValue(page, grid.data !== undefined && shown === grid.data);
  const people = shown?.scheduleGrid.people ?? [];
  const markers = useMonthMarkers(s.month, s.me.id);
  const live = useScheduleLive(s.me.id, { grids: [dayVars, markers.variables], days: [s.selected] });
  const total = shown?.scheduleGrid.totalPeople ?? 0;
  const allCollapsed = people.length > 0 && people.every((p) => collapsed.has(p.id));

  const toggle = (id: number) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className={styles.page} data-testid="schedules-sp-page">
      <header className={styles.header}>
        <h1 className={styles.title}>{title}</h1>
        <GoogleCalendarMenu month={s.month} compact />
      </header>

      <div className={styles.card}>
        <MonthCalendar
          month={s.month}
          selected={s.selected}
          today={s.today}
          busyDays={markers.busyDays}
          onSelect={s.select}
          onMonth={s.setMonth}
        />
        <div className={styles.dayBar}>
          <IconButton
            icon={ChevronLeftIcon}
            aria-label={t('schedules.day.prev')}
            onClick={() => s.select(addDays(s.selected, -1))}
            variant="invisible"
            data-testid="day-prev"
          />
          <strong className={styles.selectedDate} data-testid="selected-date" aria-live="polite">
            {formatFullDate(t, s.selected)}
          </strong>
          <IconButton
            icon={ChevronRightIcon}
            aria-label={t('schedules.day.next')}
            onClick={() => s.select(addDays(s.selected, 1))}
            variant="invisible"
            data-testid="day-next"
          />
        </div>
        {s.selected !== s.today && (
          <div className={styles.todayRow}>
            <Button size="small" variant="invisible" onClick={() => s.select(s.today)}>
              {t('schedules.day.today')}
            </Button>
          </div>
        )}
      </div>

      <div className={styles.card}>
        <MyDayPanel date={s.selected} onAdd={() => s.openCreate(s.selected)} onOpen={s.openDetail} />
      </div>

      <section className={styles.members} aria-labelledby="members-title">
        <div className={styles.membersHead}>
          <h2 id="members-title" className={styles.membersTitle}>
            {t('schedules.members.title')}
            {shown && <CounterLabel>{total}</CounterLabel>}
          </h2>
          {people.length > 0 && (
            <Button
              size="small"
              variant="invisible"
              leadingVisual={allCollapsed ? ChevronDownIcon : ChevronUpIcon}
              onClick={() => setCollapsed(allCollapsed ? new Set() : new Set(people.map((p) => p.id)))}
            >
              {allCollapsed ? t('schedules.members.expandAll') : t('schedules.members.collapseAll')}
            </Button>
          )}
        </div>
        <Filters departmentId={s.departmentId} name={s.name} onDepartment={s.setDepartmentId} onName={s.setName} />

        {!shown && !grid.error ? (
          <CenteredSpinner fill="area" label={t('common.loading')} />
        ) : !shown ? (
          <p className={styles.problem} role="alert">
            {t('schedules.loadFailed')}{' '}
            <Button variant="link" onClick={() => void grid.refetch()}>
              {t('schedules.retry')}
            </Button>
          </p>
        ) : people.length === 0 ? (
          <p className={styles.problem}>{t('schedules.grid.noPeople')}</p>
        ) : (
          <ul className={styles.list} data-testid="member-list" data-busy={grid.loading || undefined}>
            {people.map((p) => (
              <MemberItem
                key={p.id}
                person={p}
                day={s.selected}
                isMe={p.id === s.me.id}
                open={!collapsed.has(p.id)}
                onToggle={() => toggle(p.id)}
                onOpen={s.openDetail}
                onAdd={() => s.openCreate(s.selected, { id: p.id, name: p.name })}
              />
            ))}
          </ul>
        )}
        {total > PAGE_SIZE && (
          <Pager
            offset={shownPage * PAGE_SIZE}
            limit={PAGE_SIZE}
            total={total}
            onOffset={(o) => setPage(o / PAGE_SIZE)}
            labels={pagerLabels}
            compact
          />
        )}
      </section>

      <ScheduleDialogHost state={s.dialog} me={s.me} narrow onClose={s.closeDialog} onChanged={live.apply} />
    </div>
  );
}

function MemberItem({
  person,
  day,
  isMe,
  open,
  onToggle,
  onOpen,
  onAdd,
}: {
  person: GridData['scheduleGrid']['people'][number];
  day: string;
  isMe: boolean;
  open: boolean;
  onToggle(): void;
  onOpen(e: ScheduleCellFieldsFragment): void;
  onAdd(): void;
}) {
  const t = useT();
  const bodyId = `member-${person.id}`;
  return (
    <li className={styles.member} data-testid="member" data-person-name={person.name} data-me={isMe || undefined}>
      <div className={styles.memberHead}>
        <button
          type="button"
          className={styles.memberToggle}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <span className={styles.chevron} aria-hidden="true">
            {open ? <ChevronDownIcon size={16} /> : <ChevronRightIcon size={16} />}
          </span>
          <span className={styles.memberText}>
            <span className={styles.memberName}>
              {person.name}
              {isMe && <span className={styles.meTag}>{t('schedules.grid.you')}</span>}
            </span>
            {person.departmentName && <span className={styles.dept}>{person.departmentName}</span>}
          </span>
          <span className={styles.memberCount} data-zero={person.entries.length === 0 || undefined}>
            {t('schedules.members.count', { count: person.entries.length })}
          </span>
        </button>
        <IconButton
          icon={PlusIcon}
          size="small"
          variant="invisible"
          aria-label={t('schedules.grid.addFor', { name: person.name, date: formatFullDate(t, day) })}
          onClick={onAdd}
        />
      </div>
      {open && (
        <div id={bodyId} className={styles.memberBody}>
          {person.entries.length === 0 ? (
            <p className={styles.none} data-testid="member-none">
              {t('schedules.members.none')}
            </p>
          ) : (
            <div className={styles.entries}>
              {person.entries.map((e) => (
                <EntryChip
                  key={e.id}
                  entry={e}
                  day={day}
                  onOpen={onOpen}
                  layout="line"
                  declined={isMe && e.myResponse === 'DECLINED'}
                />
              ))}
            </div>
          )}
        </div>
      )}
    </li>
  );
}
