import { useEffect } from 'react';
import { useQuery } from '@apollo/client/react';
import { Label, Spinner } from '@primer/react';
import { useCatalog, useT } from '../../app/i18n';
import { PersonName } from '../../components/PersonName';
import { ProfileLikersQuery } from './operations';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';

/** いいねした社員: name, department, location, status and email, read from the master data (newest first). */
export function LikersTable({ profileId, revision, total }: { profileId: number; revision: number; total: number }) {
  const t = useT();
  const tp = useCatalog(PROFILE);
  const { data, loading, refetch } = useQuery(ProfileLikersQuery, {
    variables: { id: profileId },
    fetchPolicy: 'network-only',
  });
  // A like or unlike anywhere (the live feed's revision): read again.
  useEffect(() => {
    if (revision > 0) void refetch();
  }, [revision, refetch]);
  const likers = data?.profileLikers;
  if (!likers) return loading ? <Spinner size="small" srText={tp('loading')} /> : null;
  if (likers.length === 0) return <p className={styles.muted}>{tp('noLikers')}</p>;
  return (
    <div className={styles.tableScroll} tabIndex={0} role="region" aria-label={tp('likers')}>
      {total > likers.length && <p className={styles.muted}>{tp('likersNewest', { shown: likers.length, total })}</p>}
      <table className={styles.likers} data-testid="profile-likers">
        <thead>
          <tr>
            <th scope="col">{tp('name')}</th>
            <th scope="col">{tp('department')}</th>
            <th scope="col">{tp('location')}</th>
            <th scope="col">{tp('status')}</th>
            <th scope="col">{tp('email')}</th>
          </tr>
        </thead>
        <tbody>
          {likers.map((l) => (
            <tr key={l.id}>
              <td>
                <PersonName id={l.id} name={l.name} />
              </td>
              <td>{l.departmentName ?? '—'}</td>
              <td>{l.locationName ?? '—'}</td>
              <td>
                {l.status === 'RETIRED' ? <Label variant="secondary">{tp('retired')}</Label> : t('emp.status.ACTIVE')}
              </td>
              <td>{l.email ? <a href={`mailto:${l.email}`}>{l.email}</a> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
