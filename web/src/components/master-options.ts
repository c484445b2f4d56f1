import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useStatusText } from './labels';

export const MasterOptionsQuery = graphql(`
  query MasterOptions {
    departmentNames {
      refId: id
      name
    }
    locations {
      refId: id
      name
    }
    deviceOptions {
      computerStatuses {
        code
        label
      }
      smartphoneStatuses {
        code
        label
      }
      officeAccountStatuses {
        code
        label
      }
      officeUsageLimit
    }
  }
`);

const toOptions = (list: readonly { refId: number; name: string }[] | undefined) =>
  (list ?? []).map((x) => ({ value: String(x.refId), label: x.name }));
type StatusText = ReturnType<typeof useStatusText>;
const codes = (list: readonly { code: string; label: string }[] | undefined, text: StatusText) =>
  (list ?? []).map((x) => ({ value: x.code, label: text(x.code, x.label) }));

/** Departments, locations and status choices for filters and forms (one cached query). */
export function useMasterOptions() {
  const { data } = useQuery(MasterOptionsQuery, { fetchPolicy: 'no-cache' });
  const text = useStatusText();
  return {
    departments: toOptions(data?.departmentNames),
    locations: toOptions(data?.locations),
    computerStatuses: codes(data?.deviceOptions.computerStatuses, text),
    smartphoneStatuses: codes(data?.deviceOptions.smartphoneStatuses, text),
    officeStatuses: codes(data?.deviceOptions.officeAccountStatuses, text),
    /** Computers one Office account may serve (the row colours' limit); null until loaded. */
    officeUsageLimit: data?.deviceOptions.officeUsageLimit ?? null,
  };
}

/** YYYY-MM-DD (or an ISO date-time) → YYYY/MM/DD, the one display format of these screens. */
export function displayDate(v: string | null | undefined): string {
  if (!v) return '';
  const d = v.length > 10 ? new Date(v) : null;
  if (d && !Number.isNaN(d.getTime())) {
    const p = new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(d);
    return p;
  }
  return v.slice(0, 10).replace(/-/g, '/');
}

/** An ISO date-time → YYYY/MM/DD HH:mm (Tokyo). */
export function displayDateTime(v: string | null | undefined): string {
  if (!v) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  return new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(d);
}
