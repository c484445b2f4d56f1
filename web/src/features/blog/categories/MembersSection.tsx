import { useState, type ReactNode } from 'react';
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
        <button
          type="button"
          className={styles.tokenRemove}
          onClick={onRemove}
          aria-label={t('blogCat.removeMember', { name: member.name })}
        >
          <XIcon size={12} />
        </button>
      )}
    </li>
  );
}

/** One kind of member (departments or employees): its tokens, its error, and how to add more. */
function MemberGroup({
  title,
  members,
  emptyText,
  onChange,
  error,
  testId,
  children,
}: {
  title: string;
  members: Member[];
  emptyText: string;
  onChange?(list: Member[]): void;
  error?: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div className={styles.memberGroup}>
      <h3 className={styles.groupTitle}>{title}</h3>
      {members.length === 0 ? (
        <p className={styles.caption} data-testid={testId}>
          {emptyText}
        </p>
      ) : (
        <ul className={styles.tokens} aria-label={title} data-testid={testId}>
          {members.map((m) => (
            <MemberToken
              key={m.id}
              member={m}
              onRemove={onChange && (() => onChange(members.filter((x) => x.id !== m.id)))}
            />
          ))}
        </ul>
      )}
      {error && <p className={styles.error}>{error}</p>}
      {children}
    </div>
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
      <MemberGroup
        title={t('blogCat.departments')}
        members={departments}
        emptyText={t('blogCat.noDepartments')}
        onChange={readOnly ? undefined : onDepartments}
        error={errors.departmentIds}
        testId="category-departments"
      >
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
      </MemberGroup>
      <MemberGroup
        title={t('blogCat.employees')}
        members={employees}
        emptyText={t('blogCat.noEmployees')}
        onChange={readOnly ? undefined : onEmployees}
        error={errors.employeeIds}
        testId="category-employees"
      >
        {!readOnly && (
          <Button size="small" leadingVisual={PersonAddIcon} onClick={() => setPicking(true)}>
            {t('blogCat.addEmployees')}
          </Button>
        )}
      </MemberGroup>
      {picking && (
        <EmployeePickerDialog
          title={t('blogCat.pickEmployees')}
          multiple
          excludeIds={employees.map((e) => e.id)}
          onClose={() => setPicking(false)}
          onPick={addEmployees}
        />
      )}
    </FormSection>
  );
}
