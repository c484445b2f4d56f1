import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useConfirm } from '../../components/ConfirmDialog';
import { DetailFrame, useRecordEditor } from '../../components/DetailFrame';
import { FormGrid, FormSection, PickerField, TextField } from '../../components/FormFields';
import { OfficeAccountPickerDialog } from '../../components/PickerDialog';
import { useMasterOptions } from '../../components/master-options';
import { recordIdOf, useDetailExit, useRecordDetail } from '../../components/save-flow';
import type { ComputerDetailFieldsFragment, DeviceStatus } from '../../gql/graphql';
import { DeviceHistory } from './DeviceHistory';
import { SecretField, secretInput } from './SecretField';
import { HeldFields, heldFromView, heldInput, heldMergeFields, type HeldValues } from './device-shared';
import { ComputerDetailQuery, CreateComputerMutation, UpdateComputerMutation } from './computer.operations';

interface Form extends HeldValues {
  assetNumber: string;
  maker: string;
  deviceType: string;
  model: string;
  reason: string;
  purchaseDate: string;
  introductionDate: string;
  warrantyUntil: string;
  office: { id: number; account: string } | null;
  /** null: left as saved (the screens never load secrets; the update leaves them out). */
  pinCode: string | null;
  pass: string | null;
  acAdapter: string;
  powerCable: string;
  version: number | null;
}

const EMPTY: Form = {
  assetNumber: '',
  maker: '',
  deviceType: '',
  model: '',
  reason: '',
  purchaseDate: '',
  introductionDate: '',
  warrantyUntil: '',
  office: null,
  pinCode: null,
  pass: null,
  acAdapter: '',
  powerCable: '',
  version: null,
  currentUser: null,
  previousUser: null,
  locationId: '',
  departmentId: '',
  status: 'NORMAL',
};

const fromView = (c: ComputerDetailFieldsFragment): Form => ({
  ...heldFromView(c),
  assetNumber: c.assetNumber ?? '',
  maker: c.maker,
  deviceType: c.deviceType ?? '',
  model: c.model ?? '',
  reason: c.reason ?? '',
  purchaseDate: c.purchaseDate ?? '',
  introductionDate: c.introductionDate ?? '',
  warrantyUntil: c.warrantyUntil ?? '',
  office: c.officeAccount ? { id: c.officeAccount.id, account: c.officeAccount.account } : null,
  pinCode: null,
  pass: null,
  acAdapter: c.acAdapter ?? '',
  powerCable: c.powerCable ?? '',
  version: c.version,
});

const orNull = (s: string) => (s.trim() ? s.trim() : null);

export default function ComputerDetailPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const list = def.mobile ? '/computers/sp' : '/computers';
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const title = t(isNew ? 'page.computerNew' : 'page.computerDetail');
  useDocumentTitle(title);
  const opts = useMasterOptions();
  const ed = useRecordEditor<Form>(EMPTY, isNew);
  const { confirm, dialog } = useConfirm();
  const [officePicker, setOfficePicker] = useState(false);
  // Each reveal adds a history row: remount the history to show it.
  const [reveals, setReveals] = useState(0);
  const { data, loading, error, refetch } = useQuery(ComputerDetailQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const flow = useRecordDetail(ed, {
    record: data?.computer,
    error,
    toForm: fromView,
    fetchFailed: t('toast.fetchFailed.computer'),
    refetch: () => void refetch(),
    fields: {
      ...heldMergeFields(t, { ...opts, statuses: opts.computerStatuses }),
      assetNumber: t('pc.assetNumber'),
      maker: t('pc.maker'),
      deviceType: t('pc.deviceType'),
      model: t('pc.model'),
      reason: t('pc.reason'),
      purchaseDate: t('pc.purchaseDate'),
      introductionDate: t('pc.introductionDate'),
      office: t('pc.office'),
      pinCode: t('pc.pinCode'),
      pass: t('pc.pass'),
      acAdapter: t('pc.acAdapter'),
      powerCable: t('pc.powerCable'),
    },
  });
  const exit = useDetailExit({ editor: ed, flow, isNew, list: list, confirm });
  const [create] = useMutation(CreateComputerMutation, { fetchPolicy: 'no-cache' });
  const [update] = useMutation(UpdateComputerMutation, { fetchPolicy: 'no-cache' });
  const v = ed.values;
  const ro = !ed.editing;
  const fe = flow.fieldErrors;

  const save = async () => {
    const input = {
      ...heldInput(v),
      status: v.status as DeviceStatus,
      assetNumber: orNull(v.assetNumber),
      maker: v.maker.trim(),
      deviceType: orNull(v.deviceType),
      model: orNull(v.model),
      reason: orNull(v.reason),
      purchaseDate: orNull(v.purchaseDate),
      introductionDate: orNull(v.introductionDate),
      warrantyUntil: orNull(v.warrantyUntil),
      officeAccountId: v.office?.id ?? null,
      pinCode: secretInput(v.pinCode),
      pass: secretInput(v.pass),
      acAdapter: orNull(v.acAdapter),
      powerCable: orNull(v.powerCable),
      version: isNew ? undefined : (v.version ?? undefined),
    };
    await exit.submit('computer', () =>
      isNew ? create({ variables: { input } }) : update({ variables: { id: numericId, input } }),
    );
  };

  const cancel = () => exit.cancel();

  return (
    <DetailFrame
      testId="computer-detail-page"
      section={t(AREAS.computers.section)}
      title={title}
      {...exit.frame({
        id: numericId,
        loading: loading && !data,
        found: !!data?.computer,
        error,
        onCancel: () => void cancel(),
        onSubmit: () => void save(),
      })}
      after={
        <>
          {dialog}
          {officePicker && (
            <OfficeAccountPickerDialog
              title={t('picker.officeTitle')}
              onClose={() => setOfficePicker(false)}
              onPick={(a) => {
                ed.set('office', a);
                setOfficePicker(false);
              }}
            />
          )}
          {!isNew && data?.computer && (
            <DeviceHistory key={reveals} kind="COMPUTER" id={numericId} refreshKey={data.computer.updatedAt} />
          )}
        </>
      }
    >
      <FormGrid>
        <TextField
          label={t('pc.assetNumber')}
          value={v.assetNumber}
          onChange={(x) => ed.set('assetNumber', x)}
          readOnly={ro}
          error={fe.assetNumber}
        />
        <TextField
          label={t('pc.maker')}
          value={v.maker}
          onChange={(x) => ed.set('maker', x)}
          readOnly={ro}
          required
          error={fe.maker}
        />
        <TextField
          label={t('pc.deviceType')}
          value={v.deviceType}
          onChange={(x) => ed.set('deviceType', x)}
          readOnly={ro}
          error={fe.deviceType}
        />
        <TextField
          label={t('pc.model')}
          value={v.model}
          onChange={(x) => ed.set('model', x)}
          readOnly={ro}
          error={fe.model}
        />
        <PickerField
          label={t('pc.office')}
          display={v.office ? `${v.office.account}（ID ${v.office.id}）` : null}
          onPick={() => setOfficePicker(true)}
          onClear={() => ed.set('office', null)}
          readOnly={ro}
          href={v.office ? `/microsoft_office/${v.office.id}` : undefined}
          error={fe.officeAccountId}
          pickLabel={t('picker.choose')}
          clearLabel={t('picker.clear')}
          emptyText={t('picker.none')}
        />
        <TextField
          label={t('pc.purchaseDate')}
          type="date"
          value={v.purchaseDate}
          onChange={(x) => ed.set('purchaseDate', x)}
          readOnly={ro}
          error={fe.purchaseDate}
        />
        <TextField
          label={t('pc.introductionDate')}
          type="date"
          value={v.introductionDate}
          onChange={(x) => ed.set('introductionDate', x)}
          readOnly={ro}
          error={fe.introductionDate}
        />
        <TextField
          label={t('pc.warrantyUntil')}
          type="date"
          value={v.warrantyUntil}
          onChange={(x) => ed.set('warrantyUntil', x)}
          readOnly={ro}
          error={fe.warrantyUntil}
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
            statuses={opts.computerStatuses}
          />
          <TextField
            label={t('pc.reason')}
            value={v.reason}
            onChange={(x) => ed.set('reason', x)}
            readOnly={ro}
            error={fe.reason}
          />
        </FormGrid>
      </FormSection>
      <FormSection title={t('device.sectionSecurity')}>
        <FormGrid>
          <SecretField
            kind="COMPUTER"
            id={isNew ? null : numericId}
            secret="PIN_CODE"
            label={t('pc.pinCode')}
            value={v.pinCode}
            isSet={!!data?.computer?.secretsSet.includes('PIN_CODE')}
            onChange={(x) => ed.set('pinCode', x)}
            readOnly={ro}
            error={fe.pinCode}
            onRevealed={() => setReveals((n) => n + 1)}
          />
          <SecretField
            kind="COMPUTER"
            id={isNew ? null : numericId}
            secret="PASS"
            label={t('pc.pass')}
            value={v.pass}
            isSet={!!data?.computer?.secretsSet.includes('PASS')}
            onChange={(x) => ed.set('pass', x)}
            readOnly={ro}
            error={fe.pass}
            onRevealed={() => setReveals((n) => n + 1)}
          />
          <TextField
            label={t('pc.acAdapter')}
            value={v.acAdapter}
            onChange={(x) => ed.set('acAdapter', x)}
            readOnly={ro}
            error={fe.acAdapter}
          />
          <TextField
            label={t('pc.powerCable')}
            value={v.powerCable}
            onChange={(x) => ed.set('powerCable', x)}
            readOnly={ro}
            error={fe.powerCable}
          />
        </FormGrid>
      </FormSection>
    </DetailFrame>
  );
}
