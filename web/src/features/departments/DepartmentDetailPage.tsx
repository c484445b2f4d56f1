import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button } from '@primer/react';
import { PersonAddIcon, TrashIcon } from '@primer/octicons-react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useConfirm } from '../../components/ConfirmDialog';
import { DetailFrame, useRecordEditor } from '../../components/DetailFrame';
import { FormGrid, FormSection, PickerField, ReadonlyField, TextField } from '../../components/FormFields';
import { ListTable } from '../../components/ListTable';
import { useStatusText } from '../../components/labels';
import { EmployeePickerDialog, type PickedEmployee } from '../../components/PickerDialog';
import { displayDateTime } from '../../components/master-options';
import { recordIdOf, useDetailExit, useRecordDetail } from '../../components/save-flow';
import { toast } from '../../components/Toast';
import type { DepartmentDetailFieldsFragment } from '../../gql/graphql';
import { CreateDepartmentMutation, DepartmentDetailQuery, UpdateDepartmentMutation } from './operations';
import styles from './DepartmentDetailPage.module.css';

interface Member {
  id: number;
  name: string;
  departmentName: string | null;
  status: string;
  statusLabel: string;
}

interface Form {
  name: string;
  manager: Member | null;
  members: Member[];
  version: number | null;
  createdAt: string;
  updatedAt: string;
}

const EMPTY: Form = { name: '', manager: null, members: [], version: null, createdAt: '', updatedAt: '' };

const fromView = (d: DepartmentDetailFieldsFragment): Form => ({
  name: d.name,
  manager: d.manager ? { ...d.manager, departmentName: d.manager.departmentName ?? null } : null,
  members: d.members.map((m) => ({ ...m, departmentName: m.departmentName ?? null })),
  version: d.version,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

export default function DepartmentDetailPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const statusText = useStatusText();
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const title = t(isNew ? 'page.departmentNew' : 'page.departmentDetail');
  useDocumentTitle(title);
  const ed = useRecordEditor<Form>(EMPTY, isNew);
  const { confirm, dialog } = useConfirm();
  const [picker, setPicker] = useState<'manager' | 'members' | null>(null);
  const [selected, setSelected] = useState<Set<string | number>>(new Set());
  const { data, loading, error, refetch } = useQuery(DepartmentDetailQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const flow = useRecordDetail(ed, {
    record: data?.department,
    error,
    toForm: fromView,
    fetchFailed: t('toast.fetchFailed.department'),
    refetch: () => void refetch(),
    fields: { name: t('dept.name'), manager: t('dept.manager'), members: t('dept.members') },
  });
  const exit = useDetailExit({ editor: ed, flow, isNew, list: '/departments', confirm });
  const [create] = useMutation(CreateDepartmentMutation, { fetchPolicy: 'no-cache' });
  const [update] = useMutation(UpdateDepartmentMutation, { fetchPolicy: 'no-cache' });
  const v = ed.values;
  const ro = !ed.editing;

  const save = async () => {
    const input = {
      name: v.name.trim(),
      managerId: v.manager?.id ?? null,
      memberIds: v.members.map((m) => m.id),
      version: isNew ? undefined : (v.version ?? undefined),
    };
    await exit.submit('department', () =>
      isNew ? create({ variables: { input } }) : update({ variables: { id: numericId, input } }),
    );
  };

  const cancel = () => exit.cancel(() => setSelected(new Set()));

  const removeSelected = async () => {
    if (selected.size === 0) {
      toast.warning(t('dept.removeNone'));
      return;
    }
    const ok = await confirm({
      title: t('dept.removeConfirmTitle'),
      body: t('dept.removeConfirmBody', { n: selected.size }),
      confirmLabel: t('dept.remove'),
      cancelLabel: t('rec.dialogCancel'),
      danger: true,
    });
    if (!ok) return;
    ed.set(
      'members',
      v.members.filter((m) => !selected.has(m.id)),
    );
    setSelected(new Set());
    toast.success(t('toast.membersRemoved'));
  };

  const addMembers = (list: PickedEmployee[]) => {
    const have = new Set(v.members.map((m) => m.id));
    ed.set('members', [...v.members, ...list.filter((e) => !have.has(e.id))]);
    setPicker(null);
  };

  return (
    <DetailFrame
      testId="department-detail-page"
      section={t(AREAS.departments.section)}
      title={title}
      {...exit.frame({
        id: numericId,
        loading: loading && !data,
        found: !!data?.department,
        error,
        onCancel: () => void cancel(),
        onSubmit: () => void save(),
      })}
      after={
        <>
          {dialog}
          {picker === 'manager' && (
            <EmployeePickerDialog
              title={t('dept.pickManager')}
              onClose={() => setPicker(null)}
              onPick={([e]) => {
                ed.set('manager', e);
                setPicker(null);
              }}
            />
          )}
          {picker === 'members' && (
            <EmployeePickerDialog
              title={t('dept.pickMembers')}
              multiple
              excludeIds={v.members.map((m) => m.id)}
              onClose={() => setPicker(null)}
              onPick={addMembers}
            />
          )}
        </>
      }
    >
      <FormGrid>
        <TextField
          label={t('dept.name')}
          value={v.name}
          onChange={(x) => ed.set('name', x)}
          readOnly={ro}
          required
          error={flow.fieldErrors.name}
          autoComplete="off"
        />
        <PickerField
          label={t('dept.manager')}
          display={v.manager ? `${v.manager.name}（ID ${v.manager.id}）` : null}
          onPick={() => setPicker('manager')}
          onClear={() => ed.set('manager', null)}
          readOnly={ro}
          href={v.manager ? `/employees/${v.manager.id}` : undefined}
          error={flow.fieldErrors.managerId}
          pickLabel={t('picker.choose')}
          clearLabel={t('picker.clear')}
          emptyText={t('picker.none')}
        />
        {!isNew && (
          <>
            <ReadonlyField label={t('rec.createdAt')} value={displayDateTime(v.createdAt)} />
            <ReadonlyField label={t('rec.updatedAt')} value={displayDateTime(v.updatedAt)} />
          </>
        )}
      </FormGrid>
      <FormSection
        title={t('dept.membersCount', { n: v.members.length })}
        actions={
          !ro && (
            <>
              <Button size="small" leadingVisual={TrashIcon} variant="danger" onClick={() => void removeSelected()}>
                {t('dept.removeSelected')}
              </Button>
              <Button size="small" leadingVisual={PersonAddIcon} onClick={() => setPicker('members')}>
                {t('dept.addMembers')}
              </Button>
            </>
          )
        }
      >
        {!ro && <p className={styles.caption}>{t('dept.membersCaption')}</p>}
        {flow.fieldErrors.memberIds && <p className={styles.error}>{flow.fieldErrors.memberIds}</p>}
        <ListTable
          label={t('dept.members')}
          testId="members-table"
          rows={v.members}
          rowKey={(m) => m.id}
          emptyText={t('dept.noMembers')}
          selection={
            ro
              ? undefined
              : {
                  selected,
                  onChange: setSelected,
                  selectAllLabel: t('grid.selectAll'),
                  selectRowLabel: (m) => t('grid.selectRow', { name: m.name }),
                }
          }
          columns={[
            { key: 'id', header: t('col.id'), render: (m) => m.id, width: '4.5rem', nowrap: true },
            { key: 'name', header: t('col.name'), render: (m) => m.name, nowrap: true },
            {
              key: 'status',
              header: t('col.status'),
              render: (m) => statusText(m.status, m.statusLabel),
              nowrap: true,
            },
          ]}
        />
      </FormSection>
    </DetailFrame>
  );
}
