import { Select, TextInput } from '@primer/react';
import { useCatalog } from '../../../app/i18n';
import { STATS } from './statistics.i18n';
import { ListTable, type ListColumn } from '../../../components/ListTable';
import type { BlogStatisticsQuery } from '../../../gql/graphql';
import styles from './statistics.module.css';

type Stats = BlogStatisticsQuery['blogStatistics'];
type Employee = Stats['employees'][number];

/** The per-employee filters as typed (the page keeps them: the export sends the same). */
export interface EmployeeFilter {
  name: string;
  department: string;
  category: string;
  top: string;
}
export const NO_EMPLOYEE_FILTER: EmployeeFilter = { name: '', department: '', category: '', top: '20' };
/** The top N as applied: at least 1. */
export const topOf = (f: EmployeeFilter) => Math.max(1, Number.parseInt(f.top, 10) || 1);

/** 社員別の集計 with its filters (name, department, category) and top N (at least 1). */
export function EmployeeStatsTable({
  stats,
  narrow,
  filter,
  onFilter,
}: {
  stats: Stats;
  narrow: boolean;
  filter: EmployeeFilter;
  onFilter(f: EmployeeFilter): void;
}) {
  const ts = useCatalog(STATS);
  const { name, department, category, top } = filter;
  const set = (k: keyof EmployeeFilter, v: string) => onFilter({ ...filter, [k]: v });
  const countIn = (e: Employee, id: number) => e.byCategory.find((c) => c.categoryId === id)?.count ?? 0;
  // Filtered and cut by the server (the export applies the same); the page sends them as typed.
  const rows = stats.employees;
  const num = (key: string, header: string, f: (e: Employee) => number): ListColumn<Employee> => ({
    key,
    header,
    render: f,
    align: 'end',
    nowrap: true,
  });
  const columns: ListColumn<Employee>[] = [
    { key: 'name', header: ts('employee'), render: (e) => e.employeeName, nowrap: true },
    ...(narrow
      ? []
      : [{ key: 'department', header: ts('department'), render: (e: Employee) => e.departmentName ?? '—' }]),
    num('likes', ts('likes'), (e) => e.likeCount),
    num('comments', ts('comments'), (e) => e.commentCount),
    num('views', ts('views'), (e) => e.viewCount),
    num('posts', ts('posts'), (e) => e.postCount),
    ...(narrow ? [] : stats.categories.map((c) => num(`c${c.id}`, c.name, (e) => countIn(e, c.id)))),
  ];
  return (
    <>
      <div className={styles.controls} role="search">
        <label className={styles.field}>
          {ts('filterName')}
          <TextInput value={name} onChange={(e) => set('name', e.target.value)} size="small" />
        </label>
        <label className={styles.field}>
          {ts('filterDepartment')}
          <TextInput value={department} onChange={(e) => set('department', e.target.value)} size="small" />
        </label>
        <label className={styles.field}>
          {ts('filterCategory')}
          <Select value={category} onChange={(e) => set('category', e.target.value)} size="small">
            <Select.Option value="">{ts('allCategories')}</Select.Option>
            {stats.categories.map((c) => (
              <Select.Option key={c.id} value={String(c.id)}>
                {c.name}
              </Select.Option>
            ))}
          </Select>
        </label>
        <label className={styles.field}>
          {ts('topN')}
          <TextInput
            type="number"
            min={1}
            value={top}
            onChange={(e) => set('top', e.target.value)}
            onBlur={() => set('top', String(topOf(filter)))}
            size="small"
            style={{ width: '6rem' }}
          />
        </label>
      </div>
      {stats.employeeCount > rows.length && (
        <p className={styles.muted}>{ts('employeeCount', { shown: rows.length, count: stats.employeeCount })}</p>
      )}
      <ListTable
        label={ts('perEmployee')}
        testId="stats-employees"
        scrollable
        rows={rows}
        rowKey={(e) => e.employeeId}
        columns={columns}
        emptyText={name || department || category ? ts('emptyFiltered') : ts('empty')}
      />
    </>
  );
}
