import { useEffect, useMemo, useRef } from 'react';
import type { ApolloCache, InMemoryCache } from '@apollo/client';
import { useApolloClient, useSubscription } from '@apollo/client/react';
import { appApollo } from '../../app/apollo';
import type {
  ScheduleCellFieldsFragment,
  ScheduleChangedSubscription as ScheduleChangedData,
  ScheduleFieldsFragment,
  ScheduleGridQueryVariables,
} from '../../gql/graphql';
import { covers, overlapsRange } from './dates';
import { MySchedulesQuery, ScheduleChangedSubscription, ScheduleGridQuery } from './operations';

/*
 * Grid rows (SchedulePerson) and guests (ScheduleGuest) carry ids but are not entities of their own:
 * the same person appears in the week grid, the day list and the month markers with different
 * entries, and a guest's answer differs per entry. Keep them inside their parents in the cache.
 */
(appApollo().client.cache as InMemoryCache).policies.addTypePolicies({
  SchedulePerson: { keyFields: false },
  ScheduleGuest: { keyFields: false },
  ScheduleGrid: { keyFields: false },
});

export type ScheduleChange = ScheduleChangedData['scheduleChanged'];
export type LiveChange = Pick<ScheduleChange, 'kind' | 'scheduleId'> & { schedule: ScheduleFieldsFragment | null };

/** Grid order: by day, all-day first, then start time, then id (as the server sorts). */
export function compareGrid(a: ScheduleCellFieldsFragment, b: ScheduleCellFieldsFragment): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.isAllDay !== b.isAllDay) return a.isAllDay ? -1 : 1;
  const sa = a.startTime ?? '';
  const sb = b.startTime ?? '';
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.id - b.id;
}

/** Order of one day's list: all-day first, then start time. */
export function compareDay(a: ScheduleCellFieldsFragment, b: ScheduleCellFieldsFragment): number {
  if (a.isAllDay !== b.isAllDay) return a.isAllDay ? -1 : 1;
  const sa = a.startTime ?? '';
  const sb = b.startTime ?? '';
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.id - b.id;
}

/**
 * A grid row holds the person's own entries and those they are invited to and have not declined;
 * the viewer's row keeps the viewer's declined invitations too (dimmed), as the server's grid does.
 */
export const inRow = (s: ScheduleFieldsFragment, personId: number, me: number) =>
  s.owner.id === personId || s.guests.some((g) => g.id === personId && (g.response !== 'DECLINED' || personId === me));

/** The "my schedule" panel holds the viewer's own entries and every invitation. */
const inMine = (s: ScheduleFieldsFragment, me: number) => s.owner.id === me || s.guests.some((g) => g.id === me);

/**
 * Applies one change (from the subscription or from the viewer's own save) to the cached grids and
 * day lists in place: the entry leaves every row, then joins the rows it now belongs to. The change
 * carries the whole entry (owner and guests decide the rows); a grid keeps only its cell fields of it.
 */
export function applyChange(
  cache: ApolloCache,
  change: LiveChange,
  me: number,
  grids: readonly ScheduleGridQueryVariables[],
  days: readonly string[],
) {
  const s = change.kind === 'deleted' ? null : change.schedule;
  for (const variables of grids) {
    cache.updateQuery({ query: ScheduleGridQuery, variables }, (data) => {
      if (!data) return undefined;
      const grid = data.scheduleGrid;
      let touched = false;
      const people = grid.people.map((p) => {
        const had = p.entries.some((e) => e.id === change.scheduleId);
        const wants = !!s && overlapsRange(s, grid.from, grid.to) && inRow(s, p.id, me);
        if (!had && !wants) return p;
        touched = true;
        const rest = p.entries.filter((e) => e.id !== change.scheduleId);
        return { ...p, entries: wants ? [...rest, s!].sort(compareGrid) : rest };
      });
      return touched ? { ...data, scheduleGrid: { ...grid, people } } : undefined;
    });
  }
  for (const date of days) {
    cache.updateQuery({ query: MySchedulesQuery, variables: { date } }, (data) => {
      if (!data) return undefined;
      const had = data.mySchedules.some((e) => e.id === change.scheduleId);
      const wants = !!s && covers(s, date) && inMine(s, me);
      if (!had && !wants) return undefined;
      const rest = data.mySchedules.filter((e) => e.id !== change.scheduleId);
      return { mySchedules: wants ? [...rest, s!].sort(compareDay) : rest };
    });
  }
  changeEvents.dispatchEvent(new CustomEvent<LiveChange>('change', { detail: change }));
}

/** Every applied change, for an open dialog to notice that its entry changed or went away. */
export const changeEvents = new EventTarget();

export function useChangeListener(onChange: (change: LiveChange) => void) {
  const ref = useRef(onChange);
  ref.current = onChange;
  useEffect(() => {
    const listener = (e: Event) => ref.current((e as CustomEvent<LiveChange>).detail);
    changeEvents.addEventListener('change', listener);
    return () => changeEvents.removeEventListener('change', listener);
  }, []);
}

export interface LiveScope {
  grids: ScheduleGridQueryVariables[];
  days: string[];
}

/**
 * Subscribes to scheduleChanged for the dates on screen and patches the shown grids and day lists
 * when anyone creates, edits, deletes, accepts or declines. Returns `apply` for the viewer's own saves.
 */
export function useScheduleLive(me: number, scope: LiveScope) {
  const client = useApolloClient();
  const scopeRef = useRef(scope);
  scopeRef.current = scope;

  const dates = [...scope.grids.flatMap((g) => [g.from, g.to]), ...scope.days].sort();
  const from = dates[0];
  const to = dates[dates.length - 1];

  useSubscription(ScheduleChangedSubscription, {
    variables: { from, to },
    skip: !from,
    onData: ({ data }) => {
      const change = data.data?.scheduleChanged;
      if (change) applyChange(client.cache, change, me, scopeRef.current.grids, scopeRef.current.days);
    },
  });

  return useMemo(
    () => ({
      apply: (change: LiveChange) =>
        applyChange(client.cache, change, me, scopeRef.current.grids, scopeRef.current.days),
    }),
    [client, me],
  );
}
