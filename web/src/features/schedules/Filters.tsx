import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Select, TextInput } from '@primer/react';
import { SearchIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { ScheduleDepartmentsQuery } from './operations';
import styles from './Filters.module.css';

/** Department ("全員" or one) and a name filter; the name is applied after a short pause in typing. */
export function Filters({
  departmentId,
  name,
  onDepartment,
  onName,
}: {
  departmentId: number | null;
  name: string;
  onDepartment(id: number | null): void;
  onName(name: string): void;
}) {
  const t = useT();
  const { data } = useQuery(ScheduleDepartmentsQuery);
  const [text, setText] = useState(name);

  useEffect(() => setText(name), [name]);
  useEffect(() => {
    if (text === name) return;
    const timer = setTimeout(() => onName(text), 300);
    return () => clearTimeout(timer);
  }, [text, name, onName]);

  return (
    <div className={styles.filters} role="search" aria-label={t('schedules.filter.label')}>
      <label className={styles.field}>
        <span className={styles.label}>{t('schedules.filter.department')}</span>
        <Select
          value={departmentId == null ? '' : String(departmentId)}
          onChange={(e) => onDepartment(e.target.value ? Number(e.target.value) : null)}
          className={styles.select}
          data-testid="filter-department"
        >
          <Select.Option value="">{t('schedules.filter.all')}</Select.Option>
          {data?.departmentNames.map((d) => (
            <Select.Option key={d.id} value={String(d.id)}>
              {d.name}
            </Select.Option>
          ))}
        </Select>
      </label>
      <label className={styles.field}>
        <span className={styles.label}>{t('schedules.filter.name')}</span>
        <TextInput
          leadingVisual={SearchIcon}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('schedules.filter.namePlaceholder')}
          className={styles.input}
          data-testid="filter-name"
          type="search"
        />
      </label>
    </div>
  );
}
