import { useEffect } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { ListFrame, SelectFilter, TextFilter, useUrlFilters } from '../../components/ListFrame';
import { ListTable } from '../../components/ListTable';
import { Pager, usePagerLabels } from '../../components/Pager';
import { useListLabels, useRowReasonText } from '../../components/labels';
import { useMasterOptions } from '../../components/master-options';
import { toast } from '../../components/Toast';
import { deviceColumns } from './device-columns';
import { ExportButton } from '../../components/ExportButton';
import { AccountText, Legend, StatusLabel, useDeviceLive } from './device-shared';
import type { OfficeAccountsListQuery as OfficeAccountsListData } from '../../gql/graphql';
import { OfficeAccountsListQuery } from './office-account.operations';

import styles from './devices.module.css';

type OfficeRow = OfficeAccountsListData['officeAccounts']['items'][number];

const PAGE = 50;
const KEYS = ['account', 'status'] as const;

export default function OfficeAccountsPage({ def }: { def: PageDef }) {
  const t = useT();
  const navigate = useNavigate();
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.microsoftOffice');
  useDocumentTitle(title);
  const opts = useMasterOptions();
  const reasonText = useRowReasonText(opts.officeUsageLimit);
  const f = useUrlFilters(KEYS);
  const { data, loading, error, refetch } = useQuery(OfficeAccountsListQuery, {
    variables: {
      filter: { account: f.values.account || undefined, status: (f.values.status || undefined) as never },
      offset: f.offset,
      limit: PAGE,
    },
    fetchPolicy: 'no-cache',
  });
  useEffect(() => {
    if (error) toast.error(t('toast.fetchFailed.officeAccounts'));
  }, [error, t]);
  // Usage counts follow the computers, so a computer's save recolours this list too.
  useDeviceLive(['OFFICE_ACCOUNT', 'COMPUTER'], () => void refetch());
  const page = data?.officeAccounts;
  const pagerLabels = usePagerLabels();
  const col = deviceColumns<OfficeRow>(t, narrow);
  return (
    <ListFrame
      testId="office-accounts-page"
      section={t(AREAS.microsoftOffice.section)}
      title={title}
      description={t(AREAS.microsoftOffice.description)}
      narrow={narrow}
      labels={useListLabels()}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => navigate('/microsoft_office/new')}
      actions={
        !narrow && (
          <ExportButton
            empty={page?.total === 0}
            path="/api/microsoft_office/export"
            fallbackName="microsoft_office.xlsx"
            params={{ account: f.values.account, status: f.values.status }}
          />
        )
      }
      filters={
        <>
          <TextFilter label={t('filter.account')} value={f.values.account} onChange={(v) => f.set('account', v)} />
          <SelectFilter
            label={t('filter.status')}
            value={f.values.status}
            onChange={(v) => f.set('status', v)}
            options={opts.officeStatuses}
            allLabel={t('filter.all')}
          />
        </>
      }
    >
      <ListTable
        label={title}
        testId="office-accounts-table"
        rows={page?.items ?? []}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText={t('grid.empty')}
        openOnClick={narrow}
        onOpen={(r) => navigate(`/microsoft_office/${r.id}`)}
        rowTone={(r) => (r.rowColor === 'BLUE' ? 'blue' : r.rowColor === 'RED' ? 'red' : undefined)}
        rowTitle={(r) => reasonText(r) ?? undefined}
        columns={[
          col.id(),
          {
            key: 'account',
            // Narrow: the status goes under the account, so the account gets the width.
            header: narrow ? `${t('col.account')} / ${t('col.status')}` : t('col.account'),
            render: (r) => (
              <>
                <AccountText account={r.account} />
                {narrow && (
                  <span className={styles.sub}>
                    <StatusLabel status={r.status} label={r.statusLabel} />
                  </span>
                )}
                {r.rowColorReason && <span className={styles.sub}>{reasonText(r)}</span>}
              </>
            ),
          },
          ...(narrow ? [] : [col.status('7rem')]),
          {
            key: 'usage',
            header: t('col.usage'),
            align: 'end',
            width: narrow ? '3.5rem' : '6rem',
            nowrap: true,
            render: (r) => (
              <RouterLink
                className={styles.usageLink}
                to={`/computers?ms365=${r.id}`}
                title={t('office.usageTitle')}
                data-testid={`usage-link-${r.id}`}
                onClick={(e) => e.stopPropagation()}
                onDoubleClick={(e) => e.stopPropagation()}
              >
                {t('office.usageLink', { n: r.usageCount })}
              </RouterLink>
            ),
          },
        ]}
      />
      <Legend
        items={[
          { tone: 'blue', label: t('office.legend.blue') },
          { tone: 'red', label: t('office.legend.red') },
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
