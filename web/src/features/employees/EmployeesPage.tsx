import { PersonName } from '../../components/PersonName';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useSubscription } from '@apollo/client/react';
import { Label } from '@primer/react';
import type { PageDef } from '../../app/areas';
import { AREAS } from '../../app/areas';
import { EmployeeChangedSubscription } from '../../app/auth/operations';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { CheckFilter, ListFrame, SelectFilter, TextFilter, useUrlFilters } from '../../components/ListFrame';
import { ListTable } from '../../components/ListTable';
import { Pager, usePagerLabels } from '../../components/Pager';
import { useListLabels, useStatusText } from '../../components/labels';
import { useMasterOptions } from '../../components/master-options';
import { toast } from '../../components/Toast';
import { EmployeesListQuery } from './operations';

const PAGE = 50;
const KEYS = ['name', 'department', 'retired'] as const;

export default function EmployeesPage({ def }: { def: PageDef }) {
  const t = useT();
  const statusText = useStatusText();
  const navigate = useNavigate();
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.employees');
  useDocumentTitle(title);
  const { departments } = useMasterOptions();
  const f = useUrlFilters(KEYS);
  const { data, loading, error, refetch } = useQuery(EmployeesListQuery, {
    variables: {
      filter: {
        name: f.values.name || undefined,
        departmentId: f.values.department ? Number(f.values.department) : undefined,
        includeRetired: f.values.retired === '1',
      },
      offset: f.offset,
      limit: PAGE,
    },
    fetchPolicy: 'no-cache',
  });
  useEffect(() => {
    if (error) toast.error(t('toast.fetchFailed.employees'));
  }, [error, t]);
  useSubscription(EmployeeChangedSubscription, { onData: () => void refetch() });
  const page = data?.employees;
  const rows = page?.items ?? [];
  const open = (id: number) => navigate(`/employees/${id}`);
  const pagerLabels = usePagerLabels();
  return (
    <ListFrame
      testId="employees-page"
      section={t(AREAS.employees.section)}
      title={title}
      description={t(AREAS.employees.description)}
      narrow={narrow}
      labels={useListLabels()}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => navigate('/employees/new')}
      filters={
        <>
          <TextFilter label={t('filter.name')} value={f.values.name} onChange={(v) => f.set('name', v)} />
          <SelectFilter
            label={t('filter.department')}
            value={f.values.department}
            onChange={(v) => f.set('department', v)}
            options={departments}
            allLabel={t('filter.all')}
          />
        </>
      }
      toggles={
        <CheckFilter
          label={t('emp.showRetired')}
          checked={f.values.retired === '1'}
          onChange={(v) => f.set('retired', v ? '1' : '')}
        />
      }
    >
      <ListTable
        label={title}
        testId="employees-table"
        rows={rows}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText={t('grid.empty')}
        openOnClick={narrow}
        onOpen={(r) => open(r.id)}
        rowTone={(r) => (r.status === 'RETIRED' ? 'retired' : undefined)}
        columns={
          narrow
            ? [
                { key: 'id', header: t('col.id'), render: (r) => r.id, width: '3rem' },
                {
                  key: 'name',
                  header: t('col.name'),
                  render: (r) => (
                    <PersonName id={r.id} name={r.name}>
                      <strong>{r.name}</strong>
                    </PersonName>
                  ),
                },
                { key: 'dept', header: t('col.department'), render: (r) => r.department?.name ?? '—', nowrap: true },
                {
                  key: 'status',
                  header: t('col.status'),
                  render: (r) => statusText(r.status, r.statusLabel),
                  nowrap: true,
                },
              ]
            : [
                { key: 'id', header: t('col.id'), render: (r) => r.id, width: '4rem', nowrap: true },
                {
                  key: 'name',
                  header: t('col.name'),
                  render: (r) => <PersonName id={r.id} name={r.name} />,
                  nowrap: true,
                },
                { key: 'dept', header: t('col.department'), render: (r) => r.department?.name ?? '—', nowrap: true },
                {
                  key: 'status',
                  header: t('col.status'),
                  render: (r) => (
                    <Label variant={r.status === 'RETIRED' ? 'severe' : 'success'}>
                      {statusText(r.status, r.statusLabel)}
                    </Label>
                  ),
                  nowrap: true,
                },
                { key: 'email', header: t('col.email'), render: (r) => r.email ?? '—' },
                { key: 'loc', header: t('col.location'), render: (r) => r.location?.name ?? '—', nowrap: true },
              ]
        }
      />
      {page && (
        <Pager
          offset={page.offset}
          limit={page.limit}
          total={page.total}
          onOffset={f.setOffset}
          labels={pagerLabels}
          compact={narrow}
        />
      )}
    </ListFrame>
  );
}
