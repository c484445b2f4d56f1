import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useConfirm } from '../../components/ConfirmDialog';
import { DetailFrame, useRecordEditor } from '../../components/DetailFrame';
import { FormGrid, FormSection, TextField } from '../../components/FormFields';
import { displayDate, useMasterOptions } from '../../components/master-options';
import { recordIdOf, useDetailExit, useRecordDetail } from '../../components/save-flow';
import type { DeviceStatus, SmartphoneDetailFieldsFragment } from '../../gql/graphql';
import { DeviceHistory } from './DeviceHistory';
import { SecretField, secretInput } from './SecretField';
import { HeldFields, heldFromView, heldInput, heldMergeFields, type HeldValues } from './device-shared';
import { CreateSmartphoneMutation, SmartphoneDetailQuery, UpdateSmartphoneMutation } from './smartphone.operations';

interface Form extends HeldValues {
  phoneNumber: string;
  carrier: string;
  os: string;
  price: string;
  exchangeDate: string;
  /** null: left as saved (the screens never load secrets; the update leaves them out). */
  pinPw: string | null;
  version: number | null;
}

const EMPTY: Form = {
  phoneNumber: '',
  carrier: '',
  os: '',
  price: '',
  exchangeDate: '',
  pinPw: null,
  version: null,
  currentUser: null,
  previousUser: null,
  locationId: '',
  departmentId: '',
  status: 'NORMAL',
};

const fromView = (s: SmartphoneDetailFieldsFragment): Form => ({
  ...heldFromView(s),
  phoneNumber: s.phoneNumber,
  carrier: s.carrier ?? '',
  os: s.os ?? '',
  price: s.price == null ? '' : String(s.price),
  exchangeDate: s.exchangeDate ?? '',
  pinPw: null,
  version: s.version,
});

const orNull = (s: string) => (s.trim() ? s.trim() : null);

export default function SmartphoneDetailPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const list = def.mobile ? '/smartphones/sp' : '/smartphones';
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const title = t(isNew ? 'page.smartphoneNew' : 'page.smartphoneDetail');
  useDocumentTitle(title);
  const opts = useMasterOptions();
  const ed = useRecordEditor<Form>(EMPTY, isNew);
  const { confirm, dialog } = useConfirm();
  // Each reveal adds a history row: remount the history to show it.
  const [reveals, setReveals] = useState(0);
  const { data, loading, error, refetch } = useQuery(SmartphoneDetailQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const flow = useRecordDetail(ed, {
    record: data?.smartphone,
    error,
    toForm: fromView,
    fetchFailed: t('toast.fetchFailed.smartphone'),
    refetch: () => void refetch(),
    fields: {
      ...heldMergeFields(t, { ...opts, statuses: opts.smartphoneStatuses }),
      phoneNumber: t('sp.phoneNumber'),
      carrier: t('sp.carrier'),
      os: t('sp.os'),
      price: t('sp.price'),
      exchangeDate: t('sp.exchangeDate'),
      pinPw: t('sp.pinPw'),
    },
  });
  const exit = useDetailExit({ editor: ed, flow, isNew, list: list, confirm });
  const [create] = useMutation(CreateSmartphoneMutation, { fetchPolicy: 'no-cache' });
  const [update] = useMutation(UpdateSmartphoneMutation, { fetchPolicy: 'no-cache' });
  const v = ed.values;
  const ro = !ed.editing;
  const fe = flow.fieldErrors;

  const save = async () => {
    const input = {
      ...heldInput(v),
      status: v.status as DeviceStatus,
      phoneNumber: v.phoneNumber.trim(),
      carrier: orNull(v.carrier),
      os: orNull(v.os),
      price: v.price.trim() ? Number(v.price) : null,
      exchangeDate: orNull(v.exchangeDate),
      pinPw: secretInput(v.pinPw),
      version: isNew ? undefined : (v.version ?? undefined),
    };
    await exit.submit('smartphone', () =>
      isNew ? create({ variables: { input } }) : update({ variables: { id: numericId, input } }),
    );
  };

  const cancel = () => exit.cancel();

  return (
    <DetailFrame
      testId="smartphone-detail-page"
      section={t(AREAS.smartphones.section)}
      title={title}
      {...exit.frame({
        id: numericId,
        loading: loading && !data,
        found: !!data?.smartphone,
        error,
        onCancel: () => void cancel(),
        onSubmit: () => void save(),
      })}
      after={
        <>
          {dialog}
          {!isNew && data?.smartphone && (
            <DeviceHistory key={reveals} kind="SMARTPHONE" id={numericId} refreshKey={data.smartphone.updatedAt} />
          )}
        </>
      }
    >
      <FormGrid>
        <TextField
          label={t('sp.phoneNumber')}
          type="tel"
          value={v.phoneNumber}
          onChange={(x) => ed.set('phoneNumber', x)}
          readOnly={ro}
          required
          error={fe.phoneNumber}
        />
        <TextField
          label={t('sp.carrier')}
          value={v.carrier}
          onChange={(x) => ed.set('carrier', x)}
          readOnly={ro}
          error={fe.carrier}
        />
        <TextField label={t('sp.os')} value={v.os} onChange={(x) => ed.set('os', x)} readOnly={ro} error={fe.os} />
        <TextField
          label={t('sp.price')}
          type="number"
          value={v.price}
          onChange={(x) => ed.set('price', x)}
          readOnly={ro}
          error={fe.price}
        />
        {ro ? (
          <TextField
            label={t('sp.exchangeDate')}
            value={displayDate(v.exchangeDate)}
            onChange={() => undefined}
            readOnly
          />
        ) : (
          <TextField
            label={t('sp.exchangeDate')}
            type="date"
            value={v.exchangeDate}
            onChange={(x) => ed.set('exchangeDate', x)}
            error={fe.exchangeDate}
          />
        )}
        <SecretField
          kind="SMARTPHONE"
          id={isNew ? null : numericId}
          secret="PIN_PW"
          label={t('sp.pinPw')}
          value={v.pinPw}
          isSet={!!data?.smartphone?.secretsSet.includes('PIN_PW')}
          onChange={(x) => ed.set('pinPw', x)}
          readOnly={ro}
          error={fe.pinPw}
          onRevealed={() => setReveals((n) => n + 1)}
        />
      </FormGrid>
      <FormSection title={t('device.sectionUsage')}>
        <FormGrid>
          <HeldFields
            values={v}
            set={ed.set}
            readOnly={ro}
            errors={fe}
            locations={opts.locations}
            departments={opts.departments}
            statuses={opts.smartphoneStatuses}
          />
        </FormGrid>
      </FormSection>
    </DetailFrame>
  );
}
