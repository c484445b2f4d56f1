import { useMutation, useQuery } from '@apollo/client/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useConfirm } from '../../components/ConfirmDialog';
import { DetailFrame, useRecordEditor } from '../../components/DetailFrame';
import { FormGrid, ReadonlyField, SelectField, TextField } from '../../components/FormFields';
import { useMasterOptions } from '../../components/master-options';
import { recordIdOf, useDetailExit, useRecordDetail } from '../../components/save-flow';
import type { EmployeeDetailFieldsFragment, EmployeeRole, EmployeeStatus } from '../../gql/graphql';
import { OffboardingPanel } from './OffboardingPanel';
import { CreateEmployeeMutation, EmployeeDetailQuery, UpdateEmployeeMutation } from './operations';

interface Form {
  name: string;
  loginId: string;
  password: string;
  email: string;
  role: EmployeeRole;
  status: EmployeeStatus;
  locationId: string;
  version: number | null;
  department: string;
  departmentId: number | null;
}

const EMPTY: Form = {
  name: '',
  loginId: '',
  password: '',
  email: '',
  role: 'GENERAL',
  status: 'ACTIVE',
  locationId: '',
  version: null,
  department: '',
  departmentId: null,
};

const fromView = (e: EmployeeDetailFieldsFragment): Form => ({
  name: e.name,
  loginId: e.loginId ?? '',
  password: '',
  email: e.email ?? '',
  role: e.role,
  status: e.status,
  locationId: e.location ? String(e.location.refId) : '',
  version: e.version,
  department: e.department?.name ?? '',
  departmentId: e.department?.refId ?? null,
});

const ROLES: EmployeeRole[] = ['ADMIN', 'SYSTEM_ADMIN', 'DEVICE_ADMIN', 'GENERAL'];

export default function EmployeeDetailPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const title = t(isNew ? 'page.employeeNew' : 'page.employeeDetail');
  useDocumentTitle(title);
  const { locations } = useMasterOptions();
  const ed = useRecordEditor<Form>(EMPTY, isNew);
  const { confirm, dialog } = useConfirm();
  const { data, loading, error, refetch } = useQuery(EmployeeDetailQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const flow = useRecordDetail(ed, {
    record: data?.employee,
    error,
    toForm: fromView,
    fetchFailed: t('toast.fetchFailed.employee'),
    refetch: () => void refetch(),
    fields: {
      name: t('emp.name'),
      loginId: t('emp.loginId'),
      email: t('emp.email'),
      role: { label: t('emp.role'), options: ROLES.map((r) => ({ value: r, label: t(`role.${r}`) })) },
      status: {
        label: t('emp.status'),
        options: [
          { value: 'ACTIVE', label: t('emp.status.ACTIVE') },
          { value: 'RETIRED', label: t('emp.status.RETIRED') },
        ],
      },
      locationId: { label: t('emp.location'), options: locations },
    },
  });
  const exit = useDetailExit({ editor: ed, flow, isNew, list: '/employees', confirm });
  const [create] = useMutation(CreateEmployeeMutation, { fetchPolicy: 'no-cache' });
  const [update] = useMutation(UpdateEmployeeMutation, { fetchPolicy: 'no-cache' });
  const v = ed.values;
  const ro = !ed.editing;

  const save = async () => {
    const input = {
      name: v.name.trim(),
      loginId: v.loginId.trim(),
      email: v.email.trim() || null,
      role: v.role,
      status: v.status,
      locationId: v.locationId ? Number(v.locationId) : null,
      password: v.password ? v.password : undefined,
      version: isNew ? undefined : (v.version ?? undefined),
    };
    await exit.submit('employee', () =>
      isNew ? create({ variables: { input } }) : update({ variables: { id: numericId, input } }),
    );
  };

  const cancel = () => exit.cancel();

  const fe = flow.fieldErrors;
  return (
    <DetailFrame
      testId="employee-detail-page"
      section={t(AREAS.employees.section)}
      title={title}
      {...exit.frame({
        id: numericId,
        loading: loading && !data,
        found: !!data?.employee,
        error,
        onCancel: () => void cancel(),
        onSubmit: () => void save(),
      })}
      after={
        <>
          {dialog}
          {!isNew && data?.employee && (v.status === 'RETIRED' || ed.loaded.status === 'RETIRED') && (
            <OffboardingPanel
              employeeId={numericId}
              employeeName={data.employee.name}
              reveal={v.status === 'RETIRED' && ed.loaded.status !== 'RETIRED'}
            />
          )}
        </>
      }
    >
      <FormGrid>
        <TextField
          label={t('emp.name')}
          value={v.name}
          onChange={(x) => ed.set('name', x)}
          readOnly={ro}
          required
          error={fe.name}
          autoComplete="off"
        />
        <TextField
          label={t('emp.email')}
          type="email"
          value={v.email}
          onChange={(x) => ed.set('email', x)}
          readOnly={ro}
          error={fe.email}
          autoComplete="off"
        />
        <TextField
          label={t('emp.loginId')}
          value={v.loginId}
          onChange={(x) => ed.set('loginId', x)}
          readOnly={ro}
          required
          error={fe.loginId}
          autoComplete="off"
        />
        {!ro && (
          <TextField
            label={t('emp.password')}
            type="password"
            value={ro ? '' : v.password}
            onChange={(x) => ed.set('password', x)}
            readOnly={ro}
            required={isNew}
            error={fe.password}
            autoComplete="new-password"
            placeholder={isNew ? undefined : t('emp.passwordUnchanged')}
            caption={t('emp.passwordCaption')}
          />
        )}
        <SelectField
          label={t('emp.role')}
          value={v.role}
          onChange={(x) => ed.set('role', x as EmployeeRole)}
          readOnly={ro}
          required
          error={fe.role}
          options={ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))}
        />
        <SelectField
          label={t('emp.status')}
          value={v.status}
          onChange={(x) => ed.set('status', x as EmployeeStatus)}
          readOnly={ro}
          required
          error={fe.status}
          options={[
            { value: 'ACTIVE', label: t('emp.status.ACTIVE') },
            { value: 'RETIRED', label: t('emp.status.RETIRED') },
          ]}
        />
        <SelectField
          label={t('emp.location')}
          value={v.locationId}
          onChange={(x) => ed.set('locationId', x)}
          readOnly={ro}
          error={fe.locationId}
          options={locations}
          emptyLabel={t('rec.unset')}
        />
        <ReadonlyField
          label={t('emp.department')}
          value={v.department || t('rec.none')}
          caption={t('emp.departmentCaption')}
          href={v.departmentId ? `/departments/${v.departmentId}` : undefined}
        />
      </FormGrid>
    </DetailFrame>
  );
}
