import { AlertIcon } from '@primer/octicons-react';
import { useMutation, useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useConfirm } from '../../components/ConfirmDialog';
import { DetailFrame, useRecordEditor } from '../../components/DetailFrame';
import { FormGrid, ReadonlyField, SelectField, TextField } from '../../components/FormFields';
import { useRowReasonText } from '../../components/labels';
import { useMasterOptions } from '../../components/master-options';
import { recordIdOf, useDetailExit, useRecordDetail } from '../../components/save-flow';
import type { OfficeAccountDetailFieldsFragment, OfficeAccountStatus } from '../../gql/graphql';
import {
  CreateOfficeAccountMutation,
  OfficeAccountDetailQuery,
  UpdateOfficeAccountMutation,
} from './office-account.operations';
import styles from './devices.module.css';

interface Form {
  account: string;
  status: OfficeAccountStatus;
  version: number | null;
  usageCount: number;
}

const EMPTY: Form = { account: '', status: 'IN_USE', version: null, usageCount: 0 };
const fromView = (a: OfficeAccountDetailFieldsFragment): Form => ({
  account: a.account,
  status: a.status,
  version: a.version,
  usageCount: a.usageCount,
});

export default function OfficeAccountDetailPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const title = t(isNew ? 'page.microsoftOfficeNew' : 'page.microsoftOfficeDetail');
  useDocumentTitle(title);
  const { officeStatuses, officeUsageLimit } = useMasterOptions();
  const reasonText = useRowReasonText(officeUsageLimit);
  const ed = useRecordEditor<Form>(EMPTY, isNew);
  const { confirm, dialog } = useConfirm();
  const { data, loading, error, refetch } = useQuery(OfficeAccountDetailQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const flow = useRecordDetail(ed, {
    record: data?.officeAccount,
    error,
    toForm: fromView,
    fetchFailed: t('toast.fetchFailed.officeAccount'),
    refetch: () => void refetch(),
    fields: { account: t('office.account'), status: { label: t('office.status'), options: officeStatuses } },
  });
  const exit = useDetailExit({ editor: ed, flow, isNew, list: '/microsoft_office', confirm });
  const [create] = useMutation(CreateOfficeAccountMutation, { fetchPolicy: 'no-cache' });
  const [update] = useMutation(UpdateOfficeAccountMutation, { fetchPolicy: 'no-cache' });
  const v = ed.values;
  const ro = !ed.editing;

  const save = async () => {
    const input = {
      account: v.account.trim(),
      status: v.status,
      version: isNew ? undefined : (v.version ?? undefined),
    };
    await exit.submit('officeAccount', () =>
      isNew ? create({ variables: { input } }) : update({ variables: { id: numericId, input } }),
    );
  };

  const cancel = () => exit.cancel();

  return (
    <DetailFrame
      testId="office-account-detail-page"
      section={t(AREAS.microsoftOffice.section)}
      title={title}
      {...exit.frame({
        id: numericId,
        loading: loading && !data,
        found: !!data?.officeAccount,
        error,
        onCancel: () => void cancel(),
        onSubmit: () => void save(),
      })}
      after={dialog}
    >
      <FormGrid>
        <TextField
          label={t('office.account')}
          type="email"
          value={v.account}
          onChange={(x) => ed.set('account', x)}
          readOnly={ro}
          required
          error={flow.fieldErrors.account}
          autoComplete="off"
        />
        <SelectField
          label={t('office.status')}
          value={v.status}
          onChange={(x) => ed.set('status', x as OfficeAccountStatus)}
          readOnly={ro}
          required
          error={flow.fieldErrors.status}
          options={officeStatuses}
        />
        {!isNew && (
          <ReadonlyField
            label={t('office.usageCount')}
            value={t('office.usageLink', { n: v.usageCount })}
            caption={t('office.usageCaption')}
            href={`/computers?ms365=${numericId}`}
            linkTitle={t('office.usageTitle')}
          />
        )}
      </FormGrid>
      {!isNew && data?.officeAccount?.rowColorReason && (
        <p
          className={styles.rowReason}
          data-tone={data.officeAccount.rowColor ?? undefined}
          data-testid="office-row-reason"
        >
          <AlertIcon size={16} />
          {reasonText(data.officeAccount)}
        </p>
      )}
    </DetailFrame>
  );
}
