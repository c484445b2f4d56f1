import { useState } from 'react';
import { Button, Select } from '@primer/react';
import { PersonAddIcon, XIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
import { FormSection } from '../../../components/FormFields';
import { useMasterOptions } from '../../../components/master-options';
import { EmployeePickerDialog, type PickedEmployee } from '../../../components/PickerDialog';
import styles from './categories.module.css';

export interface Member {
  id: number;
  name: string;
}

/** A chosen department or employee; in edit mode its × removes it. */
function MemberToken({ member, onRemove }: { member: Member; onRemove?(): void }) {
  const t = useT();
  return (
    <li className={styles.token}>
      <span>{member.name}</span>
      {onRemove && (
        <button type="button" className={styles.tokenRemove} onClick={onRemove} aria-label={t('blogCat.removeMember', { name: member.name })}>
          <XIcon size={12} />
        </button>
      )}
    </li>
  );
}

function TokenList({ label, members, emptyText, onRemove, testId }: { label: string; members: Member[]; emptyText: string; onRemove?(id: number): void; testId: string }) {
  if (members.length === 0) return <p className={styles.caption} data-testid={testId}>{emptyText}</p>;
  return (
    <ul className={styles.tokens} aria-label={label} data-testid={testId}>
      {members.map((m) => (
        <MemberToken key={m.id} member={m} onRemove={onRemove && (() => onRemove(m.id))} />
      ))}
    </ul>
  );
}

/**
 * Who reads the category: whole departments (their members as they are at any time) and employees
 * named one by one, chosen in the staff picker. Shown as tokens; edits apply on 保存.
 */
export function MembersSection({
  departments,
  employees,
  onDepartments,
  onEmployees,
  readOnly,
  errors,
}: {
  departments: Member[];
  employees: Member[];
  onDepartments(list: Member[]): void;
  onEmployees(list: Member[]): void;
  readOnly: boolean;
  errors: { departmentIds?: string; employeeIds?: string };
}) {
  const t = useT();
  const { departments: allDepartments } = useMasterOptions();
  const [picking, setPicking] = useState(false);
  const chosen = new Set(departments.map((d) => d.id));
  const addable = allDepartments.filter((d) => !chosen.has(Number(d.value)));
  const addEmployees = (list: PickedEmployee[]) => {
    const have = new Set(employees.map((e) => e.id));
    onEmployees([...employees, ...list.filter((e) => !have.has(e.id)).map((e) => ({ id: e.id, name: e.name }))]);
    setPicking(false);
  };
  return (
    <FormSection title={t('blogCat.members')}>
      <p className={styles.caption}>
        {t('blogCat.membersCaption')}
        {!readOnly && t('blogCat.membersSaveHint')}
      </p>
      <div className={styles.memberGroup}>
        <h3 className={styles.groupTitle}>{t('blogCat.departments')}</h3>
        <TokenList label={t('blogCat.departments')} members={departments} emptyText={t('blogCat.noDepartments')} onRemove={readOnly ? undefined : (id) => onDepartments(departments.filter((d) => d.id !== id))} testId="category-departments" />
        {errors.departmentIds && <p className={styles.error}>{errors.departmentIds}</p>}
        {!readOnly && (
          <Select
            className={styles.addSelect}
            value=""
            aria-label={t('blogCat.addDepartment')}
            disabled={addable.length === 0}
            onChange={(e) => {
              const d = addable.find((o) => o.value === e.target.value);
              if (d) onDepartments([...departments, { id: Number(d.value), name: d.label }]);
            }}
          >
            <Select.Option value="">{t('blogCat.addDepartmentChoose')}</Select.Option>
            {addable.map((d) => (
              <Select.Option key={d.value} value={d.value}>
                {d.label}
              </Select.Option>
            ))}
          </Select>
        )}
      </div>
      <div className={styles.memberGroup}>
        <h3 className={styles.groupTitle}>{t('blogCat.employees')}</h3>
        <TokenList label={t('blogCat.employees')} members={employees} emptyText={t('blogCat.noEmployees')} onRemove={readOnly ? undefined : (id) => onEmployees(employees.filter((e) => e.id !== id))} testId="category-employees" />
        {errors.employeeIds && <p className={styles.error}>{errors.employeeIds}</p>}
        {!readOnly && (
          <Button size="small" leadingVisual={PersonAddIcon} onClick={() => setPicking(true)}>
            {t('blogCat.addEmployees')}
          </Button>
        )}
      </div>
      {picking && <EmployeePickerDialog title={t('blogCat.pickEmployees')} multiple excludeIds={employees.map((e) => e.id)} onClose={() => setPicking(false)} onPick={addEmployees} />}
    </FormSection>
  );
}
