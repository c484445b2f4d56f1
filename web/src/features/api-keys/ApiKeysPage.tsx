import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Label } from '@primer/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useCatalog, useT } from '../../app/i18n';
import { API_KEYS } from './api-keys.i18n';
import { useNarrow } from '../../app/use-narrow';
import { useConfirm } from '../../components/ConfirmDialog';
import { ListFrame, TextFilter, useUrlFilters } from '../../components/ListFrame';
import { ListTable, type ListColumn } from '../../components/ListTable';
import { useListLabels } from '../../components/labels';
import { displayDate, displayDateTime } from '../../components/master-options';
import { readError } from '../../components/gql-errors';
import { toast } from '../../components/Toast';
import type { ApiKeyFieldsFragment } from '../../gql/graphql';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { ApiKeysQuery, RevokeApiKeyMutation } from './operations';
import styles from './api-keys.module.css';

const KEYS = ['name'] as const;

/**
 * /api_keys (管理者, システム管理者): the keys other internal tools use instead of a person's
 * password. Each row says what it may do and when it was last used; revoked keys stay listed, as the
 * record of who made and who revoked them. キーを作成 shows the secret once.
 */
export default function ApiKeysPage({ def }: { def: PageDef }) {
  const t = useT();
  const tx = useCatalog(API_KEYS);
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.apiKeys');
  useDocumentTitle(title);
  const f = useUrlFilters(KEYS);
  const { data, loading, error, refetch } = useQuery(ApiKeysQuery, { fetchPolicy: 'no-cache' });
  const [revoke] = useMutation(RevokeApiKeyMutation);
  const { confirm, dialog } = useConfirm();
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    if (error) toast.error(tx('fetchFailed'));
  }, [error, tx]);

  const needle = f.values.name.toLowerCase();
  const rows = (data?.apiKeys ?? []).filter((k) => k.name.toLowerCase().includes(needle));
  const expired = (k: ApiKeyFieldsFragment) => !!k.expiresAt && new Date(k.expiresAt).getTime() <= Date.now();

  const onRevoke = async (k: ApiKeyFieldsFragment) => {
    const ok = await confirm({
      title: tx('revokeTitle'),
      body: tx('revokeBody', { name: k.name }),
      confirmLabel: tx('revoke'),
      cancelLabel: tx('cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await revoke({ variables: { id: k.id } });
      toast.success(tx('revoked', { name: k.name }));
      void refetch();
    } catch (err) {
      toast.error(readError(err).message || tx('revokeFailed'));
    }
  };

  const status = (k: ApiKeyFieldsFragment) =>
    k.revokedAt ? (
      <Label variant="secondary">{tx('status.revoked')}</Label>
    ) : expired(k) ? (
      <Label variant="attention">{tx('status.expired')}</Label>
    ) : (
      <Label variant="success">{tx('status.active')}</Label>
    );

  const columns: ListColumn<ApiKeyFieldsFragment>[] = [
    {
      key: 'name',
      header: tx('name'),
      render: (k) => (
        <span>
          {k.name}
          <br />
          <span className={`${styles.mono} ${styles.muted}`}>{k.prefix}…</span>
        </span>
      ),
    },
    { key: 'status', header: tx('status'), render: status, nowrap: true },
    {
      key: 'role',
      header: tx('role'),
      render: (k) => `${t(`role.${k.role}`)}${k.readOnly ? `・${tx('readOnlyShort')}` : ''}`,
      nowrap: !narrow,
    },
    ...(narrow
      ? []
      : [
          {
            key: 'created',
            header: tx('created'),
            render: (k: ApiKeyFieldsFragment) => `${displayDate(k.createdAt)} ${k.createdBy.name}`,
            nowrap: true,
          },
          {
            key: 'expires',
            header: tx('expires'),
            render: (k: ApiKeyFieldsFragment) => (k.expiresAt ? displayDate(k.expiresAt) : tx('noExpiry')),
            nowrap: true,
          },
          {
            key: 'used',
            header: tx('lastUsed'),
            render: (k: ApiKeyFieldsFragment) => (k.lastUsedAt ? displayDateTime(k.lastUsedAt) : tx('neverUsed')),
            nowrap: true,
          },
        ]),
    {
      key: 'action',
      header: tx('actions'),
      render: (k) =>
        k.revokedAt ? (
          // Who revoked it and when: the audit, on a desktop (the status says 失効 on a phone).
          narrow ? null : (
            <span className={styles.muted}>
              {tx('revokedBy', { name: k.revokedBy?.name ?? '', date: displayDate(k.revokedAt) })}
            </span>
          )
        ) : (
          <Button
            size="small"
            variant="danger"
            onClick={() => void onRevoke(k)}
            aria-label={tx('revokeNamed', { name: k.name })}
          >
            {tx('revoke')}
          </Button>
        ),
    },
  ];

  return (
    <ListFrame
      testId="api-keys-page"
      section={t(AREAS.apiKeys.section)}
      title={title}
      description={t(AREAS.apiKeys.description)}
      narrow={narrow}
      labels={{ ...useListLabels(), add: tx('createTitle') }}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => setCreating(true)}
      filters={<TextFilter label={tx('name')} value={f.values.name} onChange={(v) => f.set('name', v)} />}
    >
      <ListTable
        label={title}
        testId="api-keys-table"
        rows={rows}
        rowKey={(k) => k.id}
        loading={loading}
        emptyText={f.active ? t('grid.empty') : tx('empty')}
        columns={columns}
      />
      {creating && <CreateApiKeyDialog onClose={() => setCreating(false)} onCreated={() => void refetch()} />}
      {dialog}
    </ListFrame>
  );
}
