import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Dialog } from '@primer/react';
import { graphql } from '../gql';
import { useT } from '../app/i18n';
import { ListTable, type ListColumn } from './ListTable';
import { SelectFilter, TextFilter } from './ListFrame';
import { Pager, usePagerLabels } from './Pager';
import { useMasterOptions } from './master-options';
import styles from './PickerDialog.module.css';

const PAGE = 20;

export const PickerEmployeesQuery = graphql(`
  query PickerEmployees($filter: EmployeeFilter, $offset: Int!, $limit: Int!) {
    employees(filter: $filter, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        name
        statusLabel
        status
        department {
          refId: id
          name
        }
      }
    }
  }
`);

export const PickerOfficeAccountsQuery = graphql(`
  query PickerOfficeAccounts($filter: OfficeAccountFilter, $offset: Int!, $limit: Int!) {
    officeAccounts(filter: $filter, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        account
        usageCount
      }
    }
  }
`);

export interface PickedEmployee {
  id: number;
  name: string;
  departmentName: string | null;
  status: string;
  statusLabel: string;
}

/** Employee picker (ID, name, department): single choice, or several with checkboxes. */
export function EmployeePickerDialog({
  title,
  multiple,
  excludeIds = [],
  onClose,
  onPick,
}: {
  title: string;
  multiple?: boolean;
  excludeIds?: readonly number[];
  onClose(): void;
  onPick(list: PickedEmployee[]): void;
}) {
  const t = useT();
  const { departments } = useMasterOptions();
  const [name, setName] = useState('');
  const [dept, setDept] = useState('');
  const [offset, setOffset] = useState(0);
  const [picked, setPicked] = useState<Map<number, PickedEmployee>>(new Map());
  const labels = usePagerLabels();
  const { data, loading } = useQuery(PickerEmployeesQuery, {
    // Those left out are left out by the server, so the pages are full and the count is theirs.
    variables: {
      filter: {
        name: name || undefined,
        departmentId: dept ? Number(dept) : undefined,
        excludeIds: excludeIds.length ? [...excludeIds] : undefined,
      },
      offset,
      limit: PAGE,
    },
    fetchPolicy: 'no-cache',
  });
  const page = data?.employees;
  const rows = page?.items ?? [];
  const toPicked = (e: (typeof rows)[number]): PickedEmployee => ({
    id: e.id,
    name: e.name,
    departmentName: e.department?.name ?? null,
    status: e.status,
    statusLabel: e.statusLabel,
  });
  const columns: ListColumn<(typeof rows)[number]>[] = [
    { key: 'id', header: t('col.id'), render: (e) => e.id, width: '4.5rem', nowrap: true },
    { key: 'name', header: t('col.name'), render: (e) => e.name, nowrap: true },
    { key: 'dept', header: t('col.department'), render: (e) => e.department?.name ?? '—', nowrap: true },
  ];
  const selectedKeys = new Set<string | number>(picked.keys());
  return (
    <Dialog
      title={title}
      width="large"
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[
        { content: t('rec.dialogCancel'), onClick: onClose },
        ...(multiple
          ? [
              {
                content: t('picker.addSelected', { n: picked.size }),
                buttonType: 'primary' as const,
                disabled: picked.size === 0,
                onClick: () => onPick([...picked.values()]),
              },
            ]
          : []),
      ]}
    >
      <div className={styles.filters}>
        <TextFilter
          label={t('filter.name')}
          value={name}
          onChange={(v) => {
            setName(v);
            setOffset(0);
          }}
        />
        <SelectFilter
          label={t('filter.department')}
          value={dept}
          onChange={(v) => {
            setDept(v);
            setOffset(0);
          }}
          options={departments}
          allLabel={t('filter.all')}
        />
      </div>
      {!multiple && <p className={styles.hint}>{t('picker.clickHint')}</p>}
      <ListTable
        label={title}
        testId="employee-picker-table"
        columns={columns}
        rows={rows}
        rowKey={(e) => e.id}
        loading={loading && !data}
        emptyText={t('grid.empty')}
        openOnClick
        onOpen={
          multiple
            ? (e) => {
                const next = new Map(picked);
                if (next.has(e.id)) next.delete(e.id);
                else next.set(e.id, toPicked(e));
                setPicked(next);
              }
            : (e) => onPick([toPicked(e)])
        }
        selection={
          multiple
            ? {
                selected: selectedKeys,
                selectAllLabel: t('grid.selectAll'),
                selectRowLabel: (e) => t('grid.selectRow', { name: e.name }),
                onChange: (keys) => {
                  const next = new Map<number, PickedEmployee>();
                  for (const k of keys) {
                    const hit = picked.get(Number(k)) ?? rows.find((r) => r.id === k);
                    if (hit) next.set(Number(k), 'department' in hit ? toPicked(hit) : hit);
                  }
                  setPicked(next);
                },
              }
            : undefined
        }
      />
      {page && (
        <Pager
          compact
          offset={page.offset}
          limit={page.limit}
          total={page.total}
          onOffset={setOffset}
          labels={labels}
        />
      )}
    </Dialog>
  );
}

/** Office account picker (ID, account). */
export function OfficeAccountPickerDialog({
  title,
  onClose,
  onPick,
}: {
  title: string;
  onClose(): void;
  onPick(a: { id: number; account: string }): void;
}) {
  const t = useT();
  const [account, setAccount] = useState('');
  const [offset, setOffset] = useState(0);
  const labels = usePagerLabels();
  const { data, loading } = useQuery(PickerOfficeAccountsQuery, {
    // Only accounts in use: a suspended one cannot be linked (the save would refuse it).
    variables: { filter: { account: account || undefined, status: 'IN_USE' }, offset, limit: PAGE },
    fetchPolicy: 'no-cache',
  });
  const page = data?.officeAccounts;
  const rows = page?.items ?? [];
  return (
    <Dialog
      title={title}
      width="large"
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[{ content: t('rec.dialogCancel'), onClick: onClose }]}
    >
      <div className={styles.filters}>
        <TextFilter
          label={t('filter.account')}
          value={account}
          onChange={(v) => {
            setAccount(v);
            setOffset(0);
          }}
        />
      </div>
      <p className={styles.hint}>
        {t('picker.clickHint')}
        {t('picker.inUseOnly')}
      </p>
      <ListTable
        label={title}
        testId="office-picker-table"
        columns={[
          { key: 'id', header: t('col.id'), render: (a) => a.id, width: '4.5rem' },
          { key: 'account', header: t('col.account'), render: (a) => a.account },
          { key: 'usage', header: t('col.usage'), render: (a) => a.usageCount, align: 'end', width: '5rem' },
        ]}
        rows={rows}
        rowKey={(a) => a.id}
        loading={loading && !data}
        emptyText={t('grid.empty')}
        openOnClick
        onOpen={(a) => onPick({ id: a.id, account: a.account })}
      />
      {page && (
        <Pager
          compact
          offset={page.offset}
          limit={page.limit}
          total={page.total}
          onOffset={setOffset}
          labels={labels}
        />
      )}
    </Dialog>
  );
}
