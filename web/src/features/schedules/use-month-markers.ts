import { useMemo } from 'react';
import { useQuery } from '@apollo/client/react';
import { addDays, monthMatrix } from './dates';
import { ScheduleGridQuery } from './operations';

/**
 * Days of the shown month (six-week matrix) with the viewer's own entries or invitations: the
 * viewer's own row of the grid, which the server always puts first.
 */
export function useMonthMarkers(month: string, me: number) {
  const matrix = monthMatrix(month);
  const from = matrix[0][0];
  const to = matrix[5][6];
  const variables = useMemo(() => ({ from, to, departmentId: null, name: null, offset: 0, limit: 1 }), [from, to]);
  const { data, previousData } = useQuery(ScheduleGridQuery, { variables, fetchPolicy: 'cache-and-network' });
  const shown = data ?? previousData;
  const busyDays = useMemo(() => {
    const set = new Set<string>();
    const row = shown?.scheduleGrid.people[0];
    if (!row || row.id !== me) return set;
    for (const e of row.entries) {
      if (e.myResponse === 'DECLINED') continue;
      for (let d = e.date < from ? from : e.date; d <= e.endDate && d <= to; d = addDays(d, 1)) set.add(d);
    }
    return set;
  }, [shown, me, from, to]);
  return { variables, busyDays };
}
