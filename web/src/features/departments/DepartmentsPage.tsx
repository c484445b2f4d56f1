import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useSubscription } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { EmployeeChangedSubscription } from '../../app/auth/operations';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { ListFrame, TextFilter, useUrlFilters } from '../../components/ListFrame';
import { ListTable } from '../../components/ListTable';
import { Pager, usePagerLabels } from '../../components/Pager';
import { useListLabels } from '../../components/labels';
import { displayDate } from '../../components/master-options';
import { toast } from '../../components/Toast';
import type { DepartmentsListQuery as DepartmentsListData } from '../../gql/graphql';
import { DepartmentsListQuery } from './operations';

type Row = DepartmentsListData['departments']['items'][number];

const PAGE = 50;
const KEYS = ['name'] as const;

export default function DepartmentsPage({ def }: { def: PageDef }) {
  const t = useT();
  const navigate = useNavigate();
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.departments');
  useDocumentTitle(title);
  const f = useUrlFilters(KEYS);
  const { data, loading, error, refetch } = useQuery(DepartmentsListQuery, {
    variables: { name: f.values.name || undefined, offset: f.offset, limit: PAGE },
    fetchPolicy: 'no-cache',
  });
  useEffect(() => {
    if (error) toast.error(t('toast.fetchFailed.departments'));
  }, [error, t]);
  useSubscription(EmployeeChangedSubscription, { onData: () => void refetch() });
  const page = data?.departments;
  const pagerLabels = usePagerLabels();
  return (
    <ListFrame
      testId="departments-page"
      section={t(AREAS.departments.section)}
      title={title}
      description={t(AREAS.departments.description)}
      narrow={narrow}
      labels={useListLabels()}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => navigate('/departments/detail/new')}
      filters={
        <TextFilter label={t('filter.departmentName')} value={f.values.name} onChange={(v) => f.set('name', v)} />
      }
    >
      <ListTable
        label={title}
        testId="departments-table"
        rows={page?.items ?? []}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText={t('grid.empty')}
        openOnClick={narrow}
        onOpen={(r) => navigate(`/departments/detail/${r.id}`)}
        columns={[
          { key: 'id', header: t('col.id'), render: (r) => r.id, width: '4rem', nowrap: true },
          { key: 'name', header: t('dept.name'), render: (r) => r.name, nowrap: true },
          { key: 'manager', header: t('col.manager'), render: (r) => r.manager?.name ?? '—', nowrap: true },
          {
            key: 'count',
            header: t('col.memberCount'),
            render: (r) => t('dept.peopleCount', { n: r.memberCount }),
            align: 'end',
            width: '6rem',
            nowrap: true,
          },
          ...(narrow
            ? []
            : [
                {
                  key: 'upd',
                  header: t('col.updatedAt'),
                  render: (r: Row) => displayDate(r.updatedAt),
                  width: '8rem',
                  nowrap: true,
                },
              ]),
        ]}
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
