import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Label } from '@primer/react';
import { AREAS, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
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
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.apiKeys');
  useDocumentTitle(title);
  const f = useUrlFilters(KEYS);
  const { data, loading, error, refetch } = useQuery(ApiKeysQuery, { fetchPolicy: 'no-cache' });
  const [revoke] = useMutation(RevokeApiKeyMutation);
  const { confirm, dialog } = useConfirm();
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    if (error) toast.error(t('apiKey.fetchFailed'));
  }, [error, t]);

  const needle = f.values.name.toLowerCase();
  const rows = (data?.apiKeys ?? []).filter((k) => k.name.toLowerCase().includes(needle));
  const expired = (k: ApiKeyFieldsFragment) => !!k.expiresAt && new Date(k.expiresAt).getTime() <= Date.now();

  const onRevoke = async (k: ApiKeyFieldsFragment) => {
    const ok = await confirm({
      title: t('apiKey.revokeTitle'),
      body: t('apiKey.revokeBody', { name: k.name }),
      confirmLabel: t('apiKey.revoke'),
      cancelLabel: t('apiKey.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await revoke({ variables: { id: k.id } });
      toast.success(t('apiKey.revoked', { name: k.name }));
      void refetch();
    } catch (err) {
      toast.error(readError(err).message || t('apiKey.revokeFailed'));
    }
  };

  const status = (k: ApiKeyFieldsFragment) =>
    k.revokedAt ? (
      <Label variant="secondary">{t('apiKey.status.revoked')}</Label>
    ) : expired(k) ? (
      <Label variant="attention">{t('apiKey.status.expired')}</Label>
    ) : (
      <Label variant="success">{t('apiKey.status.active')}</Label>
    );

  const columns: ListColumn<ApiKeyFieldsFragment>[] = [
    {
      key: 'name',
      header: t('apiKey.name'),
      render: (k) => (
        <span>
          {k.name}
          <br />
          <span className={`${styles.mono} ${styles.muted}`}>{k.prefix}…</span>
        </span>
      ),
    },
    { key: 'status', header: t('apiKey.status'), render: status, nowrap: true },
    { key: 'role', header: t('apiKey.role'), render: (k) => `${t(`role.${k.role}`)}${k.readOnly ? `・${t('apiKey.readOnlyShort')}` : ''}`, nowrap: !narrow },
    ...(narrow
      ? []
      : [
          { key: 'created', header: t('apiKey.created'), render: (k: ApiKeyFieldsFragment) => `${displayDate(k.createdAt)} ${k.createdBy.name}`, nowrap: true },
          { key: 'expires', header: t('apiKey.expires'), render: (k: ApiKeyFieldsFragment) => (k.expiresAt ? displayDate(k.expiresAt) : t('apiKey.noExpiry')), nowrap: true },
          {
            key: 'used',
            header: t('apiKey.lastUsed'),
            render: (k: ApiKeyFieldsFragment) => (k.lastUsedAt ? displayDateTime(k.lastUsedAt) : t('apiKey.neverUsed')),
            nowrap: true,
          },
        ]),
    {
      key: 'action',
      header: t('apiKey.actions'),
      render: (k) =>
        k.revokedAt ? (
          // Who revoked it and when: the audit, on a desktop (the status says 失効 on a phone).
          narrow ? null : (
            <span className={styles.muted}>{t('apiKey.revokedBy', { name: k.revokedBy?.name ?? '', date: displayDate(k.revokedAt) })}</span>
          )
        ) : (
          <Button size="small" variant="danger" onClick={() => void onRevoke(k)} aria-label={t('apiKey.revokeNamed', { name: k.name })}>
            {t('apiKey.revoke')}
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
      labels={{ ...useListLabels(), add: t('apiKey.createTitle') }}
      activeFilters={f.active}
      onClear={() => f.clear()}
      onAdd={() => setCreating(true)}
      filters={<TextFilter label={t('apiKey.name')} value={f.values.name} onChange={(v) => f.set('name', v)} />}
    >
      <ListTable
        label={title}
        testId="api-keys-table"
        rows={rows}
        rowKey={(k) => k.id}
        loading={loading}
        emptyText={f.active ? t('grid.empty') : t('apiKey.empty')}
        columns={columns}
      />
      {creating && <CreateApiKeyDialog onClose={() => setCreating(false)} onCreated={() => void refetch()} />}
      {dialog}
    </ListFrame>
  );
}
