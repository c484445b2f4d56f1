import { useEffect, useState } from 'react';
import { Button, Label } from '@primer/react';
import { UploadIcon } from '@primer/octicons-react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useCatalog, useDocumentTitle, useT } from '../../app/i18n';
import { IMPORT } from './import.i18n';
import { useNarrow } from '../../app/use-narrow';
import {
  CheckFilter,
  FilterChip,
  ListFrame,
  SelectFilter,
  TextFilter,
  useUrlFilters,
} from '../../components/ListFrame';
import { ListTable } from '../../components/ListTable';
import { Pager, usePagerLabels } from '../../components/Pager';
import { useListLabels } from '../../components/labels';
import { displayDate, useMasterOptions } from '../../components/master-options';
import { toast } from '../../components/Toast';
import { graphql } from '../../gql';
import { deviceColumns, orDash, TwoLines } from './device-columns';
import { ExportButton } from '../../components/ExportButton';
import { HeldLegend, heldTone, useDeviceLive } from './device-shared';
import type { ComputersListQuery as ComputersListData } from '../../gql/graphql';
import { ComputersListQuery } from './computer.operations';
import { ImportDialog } from './ImportDialog';
import { WARRANTY_FILTER_DAYS, warrantyState } from './warranty';
import styles from './devices.module.css';

const PAGE = 50;
const KEYS = ['maker', 'department', 'status', 'location', 'discarded', 'ms365', 'warranty'] as const;

const Ms365NameQuery = graphql(`
  query Ms365Name($id: Int!) {
    officeAccount(id: $id) {
      id
      account
    }
  }
`);

/** The row flag of 保証期限: 保証切れ once it has passed, 保証期限間近 when it is near (nothing otherwise). */
function WarrantyFlag({ until }: { until: string | null | undefined }) {
  const t = useT();
  const state = warrantyState(until);
  if (!state) return null;
  return (
    <Label variant={state === 'expired' ? 'danger' : 'attention'} data-testid="warranty-flag">
      {t(state === 'expired' ? 'pc.warrantyExpired' : 'pc.warrantySoon')}
    </Label>
  );
}

/** 保証期限 with its flag under it (the flag alone would not say the date; side by side they overflow the table). */
function WarrantyCell({ until }: { until: string | null | undefined }) {
  return (
    <span className={styles.stack}>
      {displayDate(until ?? null)}
      <WarrantyFlag until={until} />
    </span>
  );
}

export default function ComputersPage({ def }: { def: PageDef }) {
  const t = useT();
  const tx = useCatalog(IMPORT);
  const navigate = useNavigate();
  const narrow = useNarrow() || !!def.mobile;
  const base = def.mobile ? '/computers/sp' : '/computers';
  const title = t('page.computers');
  useDocumentTitle(title);
  const opts = useMasterOptions();
  const f = useUrlFilters(KEYS);
  const ms365 = f.values.ms365 && /^\d+$/.test(f.values.ms365) ? Number(f.values.ms365) : null;
  const filter = {
    maker: f.values.maker || undefined,
    departmentId: f.values.department ? Number(f.values.department) : undefined,
    locationId: f.values.location ? Number(f.values.location) : undefined,
    status: (f.values.status || undefined) as never,
    showDiscarded: f.values.discarded === '1',
    officeAccountId: ms365 ?? undefined,
    warrantyUntilWithinDays: f.values.warranty ? Number(f.values.warranty) : undefined,
  };
  const { data, loading, error, refetch } = useQuery(ComputersListQuery, {
    variables: { filter, offset: f.offset, limit: PAGE },
    fetchPolicy: 'no-cache',
  });
  const { data: ms } = useQuery(Ms365NameQuery, { variables: { id: ms365 ?? 0 }, skip: ms365 === null });
  useEffect(() => {
    if (error) toast.error(t('toast.fetchFailed.computers'));
  }, [error, t]);
  useDeviceLive(['COMPUTER', 'OFFICE_ACCOUNT'], () => void refetch());
  const page = data?.computers;
  const [importing, setImporting] = useState(false);
  const pagerLabels = usePagerLabels();
  const open = (id: number) => navigate(`${base}/${id}`);
  const col = deviceColumns<ComputersListData['computers']['items'][number]>(t, narrow);
  const filterFields = (
    <>
      <TextFilter label={t('filter.maker')} value={f.values.maker} onChange={(v) => f.set('maker', v)} />
      <SelectFilter
        label={t('filter.department')}
        value={f.values.department}
        onChange={(v) => f.set('department', v)}
        options={opts.departments}
        allLabel={t('filter.all')}
      />
      <SelectFilter
        label={t('filter.status')}
        value={f.values.status}
        onChange={(v) => f.set('status', v)}
        options={opts.computerStatuses}
        allLabel={t('filter.all')}
      />
      <SelectFilter
        label={t('filter.location')}
        value={f.values.location}
        onChange={(v) => f.set('location', v)}
        options={opts.locations}
        allLabel={t('filter.all')}
      />
      <SelectFilter
        label={t('filter.warranty')}
        value={f.values.warranty}
        onChange={(v) => f.set('warranty', v)}
        options={WARRANTY_FILTER_DAYS.map((n) => ({ value: String(n), label: t('filter.warrantyWithin', { n }) }))}
        allLabel={t('filter.all')}
      />
    </>
  );
  return (
    <ListFrame
      testId="computers-page"
      section={t(AREAS.computers.section)}
      title={title}
      description={t(AREAS.computers.description)}
      headingLabels={[def.mobile ? t('variant.mobile') : null]}
      narrow={narrow}
      labels={useListLabels()}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => navigate(`${base}/new`)}
      actions={
        !narrow && (
          <>
            <Button leadingVisual={UploadIcon} onClick={() => setImporting(true)}>
              {tx('button')}
            </Button>
            <ExportButton
              empty={page?.total === 0}
              path="/api/computers/export"
              fallbackName="computers.xlsx"
              params={{
                maker: f.values.maker,
                department_id: f.values.department,
                location_id: f.values.location,
                status: f.values.status,
                show_discarded: f.values.discarded === '1' ? '1' : undefined,
                ms365: ms365 ? String(ms365) : undefined,
                warranty_until_within_days: f.values.warranty || undefined,
              }}
            />
          </>
        )
      }
      filters={filterFields}
      toggles={
        <CheckFilter
          label={t('device.showDiscarded')}
          checked={f.values.discarded === '1'}
          onChange={(v) => f.set('discarded', v ? '1' : '')}
        />
      }
      chips={
        ms365 !== null && (
          <FilterChip
            text={t('device.ms365Chip', { account: ms?.officeAccount.account ?? `ID ${ms365}` })}
            removeLabel={t('device.ms365Clear')}
            onRemove={() => f.set('ms365', '')}
          />
        )
      }
    >
      <ListTable
        label={title}
        testId="computers-table"
        rows={page?.items ?? []}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText={t('grid.empty')}
        openOnClick={narrow}
        onOpen={(r) => open(r.id)}
        rowTone={(r) => heldTone(r)}
        columns={
          narrow
            ? [
                col.id(),
                {
                  key: 'device',
                  header: t('col.device'),
                  render: (r) => (
                    <span className={styles.stack}>
                      <TwoLines main={r.maker} sub={r.model ?? ''} />
                      <WarrantyFlag until={r.warrantyUntil} />
                    </span>
                  ),
                },
                col.currentUser(),
                col.status(),
              ]
            : [
                col.id(),
                { key: 'asset', header: t('pc.assetNumber'), render: (r) => orDash(r.assetNumber), nowrap: true },
                {
                  key: 'maker',
                  header: `${t('col.maker')} / ${t('col.model')}`,
                  render: (r) => <TwoLines main={r.maker} sub={[r.model, r.deviceType].filter(Boolean).join(' · ')} />,
                },
                col.currentUser(),
                col.department(),
                col.location(),
                col.status(),
                {
                  key: 'office',
                  header: t('col.office'),
                  render: (r) => orDash(r.officeAccount?.account.replace(/@.*/, '')),
                  nowrap: true,
                },
                {
                  key: 'intro',
                  header: t('col.introductionDate'),
                  render: (r) => displayDate(r.introductionDate),
                  nowrap: true,
                },
                {
                  key: 'warranty',
                  header: t('pc.warrantyUntil'),
                  render: (r) => <WarrantyCell until={r.warrantyUntil} />,
                  nowrap: true,
                },
              ]
        }
      />
      <HeldLegend />
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
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
    </ListFrame>
  );
}
