import type { ReactNode } from 'react';
import type { Translate } from '../../app/i18n';
import type { ListColumn } from '../../components/ListTable';
import { HolderName, StatusLabel } from './device-shared';
import styles from './devices.module.css';

/**
 * The columns the device lists share (computers, smartphones, Office accounts): one definition each,
 * so a header, a width or the empty mark changes in one place.
 */

type Named = { name: string } | null | undefined;

/** The empty mark of a list cell. */
export const orDash = (value: string | null | undefined): string => (value == null || value === '' ? '—' : value);

/** A main value with a smaller second line (maker over model, number over carrier). */
export function TwoLines({ main, sub }: { main: ReactNode; sub: ReactNode }) {
  return (
    <>
      <span className={styles.primary}>{main}</span>
      <span className={styles.sub}>{sub}</span>
    </>
  );
}

/** What a device row has that the shared columns show (an Office account has no holder, department or location). */
export interface DeviceRow {
  id: number;
  status: string;
  statusLabel: string;
  currentUser?: { name: string; retired: boolean } | null;
  department?: Named;
  location?: Named;
}

export function deviceColumns<R extends DeviceRow>(t: Translate, narrow: boolean) {
  return {
    id: (): ListColumn<R> => ({
      key: 'id',
      header: t('col.id'),
      render: (r) => r.id,
      width: narrow ? '2.5rem' : '3.5rem',
      nowrap: true,
    }),
    currentUser: (): ListColumn<R> => ({
      key: 'user',
      header: t('col.currentUser'),
      render: (r) => <HolderName holder={r.currentUser} />,
    }),
    department: (): ListColumn<R> => ({
      key: 'dept',
      header: t('col.department'),
      render: (r) => orDash(r.department?.name),
      nowrap: true,
    }),
    location: (): ListColumn<R> => ({
      key: 'loc',
      header: t('col.location'),
      render: (r) => orDash(r.location?.name),
      nowrap: true,
    }),
    status: (width?: string): ListColumn<R> => ({
      key: 'status',
      header: t('col.status'),
      render: (r) => <StatusLabel status={r.status} label={r.statusLabel} />,
      nowrap: true,
      width,
    }),
  };
}
