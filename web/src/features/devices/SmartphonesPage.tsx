import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { CheckFilter, ListFrame, SelectFilter, TextFilter, useUrlFilters } from '../../components/ListFrame';
import { ListTable } from '../../components/ListTable';
import { Pager, usePagerLabels } from '../../components/Pager';
import { useListLabels } from '../../components/labels';
import { displayDate, useMasterOptions } from '../../components/master-options';
import { toast } from '../../components/Toast';
import { deviceColumns, orDash, TwoLines } from './device-columns';
import { ExportButton } from '../../components/ExportButton';
import { HeldLegend, heldTone, useDeviceLive } from './device-shared';
import type { SmartphonesListQuery as SmartphonesListData } from '../../gql/graphql';
import { SmartphonesListQuery } from './smartphone.operations';

const PAGE = 50;
const KEYS = ['phone', 'carrier', 'department', 'status', 'location', 'discarded'] as const;

export default function SmartphonesPage({ def }: { def: PageDef }) {
  const t = useT();
  const navigate = useNavigate();
  const narrow = useNarrow() || !!def.mobile;
  const base = def.mobile ? '/smartphones/sp' : '/smartphones';
  const title = t('page.smartphones');
  useDocumentTitle(title);
  const opts = useMasterOptions();
  const f = useUrlFilters(KEYS);
  const filter = {
    phoneNumber: f.values.phone || undefined,
    carrier: f.values.carrier || undefined,
    departmentId: f.values.department ? Number(f.values.department) : undefined,
    locationId: f.values.location ? Number(f.values.location) : undefined,
    status: (f.values.status || undefined) as never,
    showDiscarded: f.values.discarded === '1',
  };
  const { data, loading, error, refetch } = useQuery(SmartphonesListQuery, {
    variables: { filter, offset: f.offset, limit: PAGE },
    fetchPolicy: 'no-cache',
  });
  useEffect(() => {
    if (error) toast.error(t('toast.fetchFailed.smartphones'));
  }, [error, t]);
  useDeviceLive(['SMARTPHONE'], () => void refetch());
  const page = data?.smartphones;
  const pagerLabels = usePagerLabels();
  const col = deviceColumns<SmartphonesListData['smartphones']['items'][number]>(t, narrow);
  return (
    <ListFrame
      testId="smartphones-page"
      section={t(AREAS.smartphones.section)}
      title={title}
      description={t(AREAS.smartphones.description)}
      headingLabels={[def.mobile ? t('variant.mobile') : null]}
      narrow={narrow}
      labels={useListLabels()}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => navigate(`${base}/new`)}
      actions={
        !narrow && (
          <ExportButton
            empty={page?.total === 0}
            path="/api/smartphone/export"
            fallbackName="smartphones.xlsx"
            params={{
              phone_number: f.values.phone,
              carrier: f.values.carrier,
              department_id: f.values.department,
              location_id: f.values.location,
              status: f.values.status,
              show_discarded: f.values.discarded === '1' ? '1' : undefined,
            }}
          />
        )
      }
      filters={
        <>
          <TextFilter label={t('filter.phoneNumber')} value={f.values.phone} onChange={(v) => f.set('phone', v)} />
          <TextFilter label={t('filter.carrier')} value={f.values.carrier} onChange={(v) => f.set('carrier', v)} />
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
            options={opts.smartphoneStatuses}
            allLabel={t('filter.all')}
          />
          <SelectFilter
            label={t('filter.location')}
            value={f.values.location}
            onChange={(v) => f.set('location', v)}
            options={opts.locations}
            allLabel={t('filter.all')}
          />
        </>
      }
      toggles={
        <CheckFilter
          label={t('device.showDiscarded')}
          checked={f.values.discarded === '1'}
          onChange={(v) => f.set('discarded', v ? '1' : '')}
        />
      }
    >
      <ListTable
        label={title}
        testId="smartphones-table"
        rows={page?.items ?? []}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText={t('grid.empty')}
        openOnClick={narrow}
        onOpen={(r) => navigate(`${base}/${r.id}`)}
        rowTone={(r) => heldTone(r)}
        columns={
          narrow
            ? [
                col.id(),
                {
                  key: 'phone',
                  header: t('col.phoneNumber'),
                  render: (r) => <TwoLines main={r.phoneNumber} sub={r.carrier ?? ''} />,
                },
                col.currentUser(),
                col.status(),
              ]
            : [
                col.id(),
                { key: 'phone', header: t('col.phoneNumber'), render: (r) => r.phoneNumber, nowrap: true },
                { key: 'carrier', header: t('col.carrier'), render: (r) => orDash(r.carrier), nowrap: true },
                { key: 'os', header: t('col.os'), render: (r) => orDash(r.os), nowrap: true },
                col.currentUser(),
                col.department(),
                col.location(),
                col.status(),
                { key: 'ex', header: t('col.exchangeDate'), render: (r) => displayDate(r.exchangeDate), nowrap: true },
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
    </ListFrame>
  );
}
