import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, ButtonGroup, IconButton } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import { Navigate, useLocation } from 'react-router-dom';
import type { PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { CenteredSpinner } from '../../components/CenteredStatus';
import { Pager, usePagerLabels } from '../../components/Pager';
import { addDays, mondayOf, weekDays } from './dates';
import { Filters } from './Filters';
import { formatWeekLabel } from './format';
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
import { WeekGrid } from './WeekGrid';
import styles from './SchedulesPage.module.css';

/**
 * People per grid page: a screenful or two of rows with ~6 entries a day each. 100 made a page of a
 * busy company ~0.9 MB and 100 ms before the first paint (bench: `npm run bench -- grid`).
 */
const PAGE_SIZE = 25;

/** /schedules: month calendar, my day, and the weekly people × days grid. */
/** Under 440 px the schedule has its own route (spec): /schedules → /schedules/sp, keeping ?date. */
export default function SchedulesPage(_: { def: PageDef; id?: string }) {
  const t = useT();
  const narrow = useNarrow();
  const { search } = useLocation();
  if (narrow) return <Navigate to={`/schedules/sp${search}`} replace />;
  return (
    <>
      <ToastHost closeLabel={t('schedules.toast.close')} />
      <DesktopSchedules />
    </>
  );
}

function DesktopSchedules() {
  const t = useT();
  const title = t('page.schedules');
  useDocumentTitle(title);
  usePreloadDialog();
  const s = useScheduleScreen();
  const monday = mondayOf(s.selected);
  const days = useMemo(() => weekDays(monday), [monday]);
  const [page, setPage] = useState(0);
  const pagerLabels = usePagerLabels();
  useEffect(() => setPage(0), [s.departmentId, s.name]);

  const gridVars = useMemo(
    () => ({
      from: days[0],
      to: days[6],
      departmentId: s.departmentId,
      name: s.name.trim() || null,
      offset: page * PAGE_SIZE,
      limit: PAGE_SIZE,
    }),
    [days, s.departmentId, s.name, page],
  );
  const grid = useQuery(ScheduleGridQuery, { variables: gridVars, fetchPolicy: 'cache-and-network' });
  const shown = grid.data ?? grid.previousData;
  // The pager names the rows on screen: while the next page loads, the previous one stays, and so does its range.
  const shownPage = useShownValue(page, grid.data !== undefined);
  const markers = useMonthMarkers(s.month, s.me.id);

  const live = useScheduleLive(s.me.id, { grids: [gridVars, markers.variables], days: [s.selected] });

  const { openCreate } = s;
  const onCreate = useCallback(
    (person: { id: number; name: string }, day: string) => openCreate(day, person),
    [openCreate],
  );
  const total = shown?.scheduleGrid.totalPeople ?? 0;

  return (
    <div className={styles.page} data-testid="schedules-page">
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          <p className={styles.lead}>{t('desc.schedules')}</p>
        </div>
        <div className={styles.headerActions}>
          <GoogleCalendarMenu month={s.month} />
        </div>
      </header>

      <div className={styles.top}>
        <div className={styles.card}>
          <MonthCalendar
            month={s.month}
            selected={s.selected}
            today={s.today}
            busyDays={markers.busyDays}
            onSelect={s.select}
            onMonth={s.setMonth}
          />
        </div>
        <div className={`${styles.card} ${styles.mine}`}>
          <MyDayPanel date={s.selected} onAdd={() => s.openCreate(s.selected)} onOpen={s.openDetail} />
        </div>
      </div>

      <section className={styles.card} aria-labelledby="week-label">
        <div className={styles.toolbar}>
          <div className={styles.weekNav}>
            <ButtonGroup>
              <IconButton
                icon={ChevronLeftIcon}
                aria-label={t('schedules.week.prev')}
                onClick={() => s.select(addDays(s.selected, -7))}
                data-testid="week-prev"
              />
              <Button onClick={() => s.select(s.today)}>{t('schedules.week.thisWeek')}</Button>
              <IconButton
                icon={ChevronRightIcon}
                aria-label={t('schedules.week.next')}
                onClick={() => s.select(addDays(s.selected, 7))}
                data-testid="week-next"
              />
            </ButtonGroup>
            <h2 id="week-label" className={styles.weekLabel} data-testid="week-label" aria-live="polite">
              {formatWeekLabel(t, days[0], days[6])}
            </h2>
          </div>
          <Filters departmentId={s.departmentId} name={s.name} onDepartment={s.setDepartmentId} onName={s.setName} />
        </div>

        {!shown && grid.loading ? (
          <CenteredSpinner fill="area" label={t('common.loading')} />
        ) : !shown && grid.error ? (
          <div className={styles.problem} role="alert">
            {t('schedules.loadFailed')}{' '}
            <Button variant="link" onClick={() => void grid.refetch()}>
              {t('schedules.retry')}
            </Button>
          </div>
        ) : shown && shown.scheduleGrid.people.length === 0 ? (
          <div className={styles.problem} data-testid="grid-empty">
            {t('schedules.grid.noPeople')}
          </div>
        ) : shown ? (
          <>
            <WeekGrid
              days={days}
              people={shown.scheduleGrid.people}
              me={s.me.id}
              today={s.today}
              selected={s.selected}
              onCreate={onCreate}
              onOpen={s.openDetail}
              onSelectDay={s.select}
              busy={grid.loading}
            />
            <div className={styles.gridFooter}>
              <span className={styles.count}>{t('schedules.grid.count', { count: total })}</span>
              <span className={styles.legend} aria-hidden="true">
                <span data-kind="TASK">{t('schedules.type.task')}</span>
                <span data-kind="REMOTE">{t('schedules.type.remote')}</span>
                <span data-kind="APPOINTMENT">{t('schedules.type.appointment')}</span>
                <span data-kind="busy">{t('schedules.busy')}</span>
                <span data-kind="declined">{t('schedules.legend.declined')}</span>
              </span>
              {total > PAGE_SIZE && (
                <Pager
                  offset={shownPage * PAGE_SIZE}
                  limit={PAGE_SIZE}
                  total={total}
                  onOffset={(o) => setPage(o / PAGE_SIZE)}
                  labels={pagerLabels}
                />
              )}
            </div>
          </>
        ) : null}
      </section>

      <ScheduleDialogHost state={s.dialog} me={s.me} narrow={false} onClose={s.closeDialog} onChanged={live.apply} />
    </div>
  );
}
