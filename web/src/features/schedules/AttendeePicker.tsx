import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Checkbox, Dialog, Select, Spinner, TextInput } from '@primer/react';
import { SearchIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { AttendeeDirectoryQuery, ScheduleDepartmentsQuery } from './operations';
import styles from './AttendeePicker.module.css';
import { PersonName } from '../../components/PersonName';

export interface Attendee {
  id: number;
  name: string;
  detail?: string | null;
}

/** The attendee picker: a table of staff with checkbox selection (name, role / department), OK and Cancel. */
export function AttendeePicker({
  selected,
  excludeId,
  narrow,
  onConfirm,
  onCancel,
}: {
  selected: Attendee[];
  excludeId: number;
  narrow: boolean;
  onConfirm(list: Attendee[]): void;
  onCancel(): void;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [departmentId, setDepartmentId] = useState<number | null>(null);
  const [chosen, setChosen] = useState(() => new Map(selected.map((a) => [a.id, a])));

  useEffect(() => {
    const timer = setTimeout(() => setName(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);

  const departments = useQuery(ScheduleDepartmentsQuery);
  const { data, previousData, loading, error } = useQuery(AttendeeDirectoryQuery, {
    variables: { filter: { name: name || null, departmentId }, limit: 200 },
  });
  const shown = data ?? previousData;
  const rows = useMemo(() => (shown?.employees.items ?? []).filter((e) => e.id !== excludeId), [shown, excludeId]);
  const allOn = rows.length > 0 && rows.every((r) => chosen.has(r.id));
  const someOn = rows.some((r) => chosen.has(r.id));

  const toggle = (row: (typeof rows)[number]) =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, { id: row.id, name: row.name, detail: row.department?.name ?? null });
      return next;
    });

  const toggleAll = () =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (allOn) rows.forEach((r) => next.delete(r.id));
      else rows.forEach((r) => next.set(r.id, { id: r.id, name: r.name, detail: r.department?.name ?? null }));
      return next;
    });

  return (
    <Dialog
      title={t('schedules.picker.title')}
      subtitle={t('schedules.picker.selectedCount', { count: chosen.size })}
      onClose={onCancel}
      width="xlarge"
      height="large"
      position={narrow ? { narrow: 'fullscreen', regular: 'center' } : 'center'}
      footerButtons={[
        { content: t('schedules.cancel'), onClick: onCancel },
        {
          content: t('schedules.ok'),
          buttonType: 'primary',
          onClick: () => onConfirm([...chosen.values()]),
          'data-testid': 'picker-ok',
        } as never,
      ]}
      data-testid="attendee-picker"
    >
      <div className={styles.tools}>
        <TextInput
          leadingVisual={SearchIcon}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('schedules.filter.namePlaceholder')}
          aria-label={t('schedules.filter.name')}
          className={styles.search}
          data-testid="picker-search"
        />
        <Select
          value={departmentId == null ? '' : String(departmentId)}
          onChange={(e) => setDepartmentId(e.target.value ? Number(e.target.value) : null)}
          aria-label={t('schedules.filter.department')}
        >
          <Select.Option value="">{t('schedules.filter.allDepartments')}</Select.Option>
          {departments.data?.departmentNames.map((d) => (
            <Select.Option key={d.id} value={String(d.id)}>
              {d.name}
            </Select.Option>
          ))}
        </Select>
      </div>
      <div className={styles.tableWrap} data-busy={loading || undefined}>
        <table className={styles.table} data-testid="picker-table">
          <thead>
            <tr>
              <th scope="col" className={styles.check}>
                <Checkbox
                  checked={allOn}
                  indeterminate={!allOn && someOn}
                  onChange={toggleAll}
                  aria-label={t('schedules.picker.selectAll')}
                  disabled={rows.length === 0}
                />
              </th>
              <th scope="col">{t('schedules.picker.name')}</th>
              <th scope="col">{t('schedules.picker.role')}</th>
              <th scope="col">{t('schedules.picker.department')}</th>
            </tr>
          </thead>
          <tbody>
            {!shown && loading ? (
              <tr>
                <td colSpan={4} className={styles.empty}>
                  <Spinner size="small" srText={t('common.loading')} />
                </td>
              </tr>
            ) : !shown && error ? (
              <tr>
                <td colSpan={4} className={styles.empty}>
                  {t('schedules.loadFailed')}
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={4} className={styles.empty}>
                  {t('schedules.picker.none')}
                </td>
              </tr>
            ) : (
              rows.map((r) => {
                const on = chosen.has(r.id);
                return (
                  <tr
                    key={r.id}
                    className={styles.row}
                    data-on={on || undefined}
                    onClick={() => toggle(r)}
                    data-testid="picker-row"
                    data-name={r.name}
                  >
                    <td className={styles.check}>
                      <Checkbox
                        checked={on}
                        onChange={() => toggle(r)}
                        onClick={(e) => e.stopPropagation()}
                        aria-label={r.name}
                      />
                    </td>
                    <td className={styles.name}>
                      <PersonName id={r.id} name={r.name} />
                    </td>
                    <td className={styles.muted}>{r.roleLabel}</td>
                    <td className={styles.muted}>{r.department?.name ?? '—'}</td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </Dialog>
  );
}
