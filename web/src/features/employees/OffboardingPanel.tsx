import { useEffect, useRef } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Banner, Button, Spinner } from '@primer/react';
import { PackageIcon } from '@primer/octicons-react';
import { Link as RouterLink } from 'react-router-dom';
import { useT } from '../../app/i18n';
import { useConfirm } from '../../components/ConfirmDialog';
import { FormSection } from '../../components/FormFields';
import { ListTable } from '../../components/ListTable';
import { readError } from '../../components/gql-errors';
import { useErrorText, useStatusText } from '../../components/labels';
import { toast } from '../../components/Toast';
import { EmployeeDevicesQuery, ReturnEmployeeDevicesMutation } from './operations';
import styles from './OffboardingPanel.module.css';

/**
 * Retirement: the devices and Office accounts the employee still holds, returned in one confirmed
 * action. `reveal`: the status has just been set to 退職 on the form; the panel (below the form,
 * often out of sight) is scrolled into view when there is something to return.
 */
export function OffboardingPanel({
  employeeId,
  employeeName,
  reveal = false,
}: {
  employeeId: number;
  employeeName: string;
  reveal?: boolean;
}) {
  const t = useT();
  const statusText = useStatusText();
  const errorText = useErrorText();
  const { confirm, dialog } = useConfirm();
  const { data, loading, refetch } = useQuery(EmployeeDevicesQuery, {
    variables: { employeeId },
    fetchPolicy: 'no-cache',
  });
  const [returnAll, { loading: returning }] = useMutation(ReturnEmployeeDevicesMutation);
  const d = data?.employeeDevices;
  const held = (d?.computers.length ?? 0) + (d?.smartphones.length ?? 0);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reveal && held > 0) panel.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [reveal, held]);

  const run = async () => {
    const ok = await confirm({
      title: t('offboard.confirmTitle'),
      body: t('offboard.confirmBody', {
        name: employeeName,
        computers: d?.computers.length ?? 0,
        smartphones: d?.smartphones.length ?? 0,
      }),
      confirmLabel: t('offboard.confirm'),
      cancelLabel: t('rec.dialogCancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      const res = await returnAll({ variables: { employeeId } });
      const r = res.data?.returnEmployeeDevices;
      toast.success(t('offboard.done', { n: (r?.computers.length ?? 0) + (r?.smartphones.length ?? 0) }));
      await refetch();
    } catch (err) {
      toast.error(errorText(readError(err)));
    }
  };

  return (
    <FormSection
      title={t('offboard.title')}
      actions={
        held > 0 && (
          <Button variant="danger" leadingVisual={PackageIcon} onClick={() => void run()} disabled={returning}>
            {t('offboard.returnAll')}
          </Button>
        )
      }
    >
      {dialog}
      <div data-testid="offboarding-panel" ref={panel}>
        {loading && !d ? (
          <Spinner size="small" />
        ) : held === 0 ? (
          <Banner variant="success" title={t('offboard.none')} />
        ) : (
          <>
            <p className={styles.lead}>{t('offboard.lead', { name: employeeName })}</p>
            <div className={styles.tables}>
              <ListTable
                label={t('nav.computers')}
                rows={d?.computers ?? []}
                rowKey={(c) => c.id}
                emptyText={t('offboard.noComputers')}
                columns={[
                  {
                    key: 'id',
                    header: t('col.id'),
                    render: (c) => <RouterLink to={`/computers/${c.id}`}>{c.id}</RouterLink>,
                    width: '4rem',
                  },
                  {
                    key: 'pc',
                    header: t('nav.computers'),
                    render: (c) => [c.maker, c.model].filter(Boolean).join(' '),
                  },
                  {
                    key: 'st',
                    header: t('col.status'),
                    render: (c) => statusText(c.status, c.statusLabel),
                    nowrap: true,
                  },
                ]}
              />
              <ListTable
                label={t('nav.smartphones')}
                rows={d?.smartphones ?? []}
                rowKey={(s) => s.id}
                emptyText={t('offboard.noSmartphones')}
                columns={[
                  {
                    key: 'id',
                    header: t('col.id'),
                    render: (s) => <RouterLink to={`/smartphones/${s.id}`}>{s.id}</RouterLink>,
                    width: '4rem',
                  },
                  {
                    key: 'ph',
                    header: t('col.phoneNumber'),
                    render: (s) => `${s.phoneNumber}${s.carrier ? `（${s.carrier}）` : ''}`,
                  },
                  {
                    key: 'st',
                    header: t('col.status'),
                    render: (s) => statusText(s.status, s.statusLabel),
                    nowrap: true,
                  },
                ]}
              />
              {(d?.officeAccounts.length ?? 0) > 0 && (
                <ListTable
                  label={t('nav.microsoftOffice')}
                  rows={d?.officeAccounts ?? []}
                  rowKey={(a) => a.id}
                  emptyText=""
                  columns={[
                    { key: 'id', header: t('col.id'), render: (a) => a.id, width: '4rem' },
                    { key: 'acc', header: t('col.account'), render: (a) => a.account },
                    {
                      key: 'st',
                      header: t('col.status'),
                      render: (a) => statusText(a.status, a.statusLabel),
                      nowrap: true,
                    },
                  ]}
                />
              )}
            </div>
            <p className={styles.note}>{t('offboard.note')}</p>
          </>
        )}
      </div>
    </FormSection>
  );
}
