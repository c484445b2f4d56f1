import { useRef, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Banner, Button, Checkbox, Dialog, Select, TextInput } from '@primer/react';
import { CopyIcon } from '@primer/octicons-react';
import { useCatalog, useT } from '../../app/i18n';
import { API_KEYS } from './api-keys.i18n';
import { CheckboxField, Field } from '../../components/Field';
import { readError } from '../../components/gql-errors';
import type { EmployeeRole } from '../../gql/graphql';
import { CreateApiKeyMutation } from './operations';
import styles from './api-keys.module.css';

const ROLES: EmployeeRole[] = ['GENERAL', 'DEVICE_ADMIN', 'ADMIN', 'SYSTEM_ADMIN'];

/**
 * キーを作成: a name, the role the key acts with, read-only (the default) and an optional expiry.
 * On success the secret is shown here once, with a copy button; closing the dialog forgets it.
 */
export function CreateApiKeyDialog({ onClose, onCreated }: { onClose(): void; onCreated(): void }) {
  const t = useT();
  const tx = useCatalog(API_KEYS);
  const [create, { loading }] = useMutation(CreateApiKeyMutation);
  const [name, setName] = useState('');
  const [role, setRole] = useState<EmployeeRole>('GENERAL');
  const [readOnly, setReadOnly] = useState(true);
  const [expires, setExpires] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  const submit = async () => {
    if (!name.trim()) {
      setErrors({ name: tx('nameRequired') });
      nameRef.current?.focus();
      return;
    }
    setErrors({});
    setFailed(null);
    try {
      // The expiry is the end of the chosen day in Tokyo.
      const expiresAt = expires ? new Date(`${expires}T23:59:59+09:00`).toISOString() : null;
      const { data } = await create({ variables: { input: { name: name.trim(), role, readOnly, expiresAt } } });
      setSecret(data!.createApiKey.secret);
      onCreated();
    } catch (err) {
      const e = readError(err);
      if (Object.keys(e.fieldErrors).length) setErrors(e.fieldErrors);
      else setFailed(e.code === 'NETWORK' ? tx('createFailed') : e.message || tx('createFailed'));
    }
  };

  const copy = async () => {
    await navigator.clipboard?.writeText(secret!).catch(() => undefined);
    setCopied(true);
  };

  if (secret) {
    return (
      <Dialog
        title={tx('createdTitle')}
        onClose={onClose}
        width="large"
        footerButtons={[{ content: tx('done'), buttonType: 'primary', onClick: onClose }]}
      >
        <div className={styles.dialog} data-testid="api-key-secret">
          <Banner variant="warning" title={tx('onceTitle')} description={tx('onceBody')} />
          <Field label={tx('secret')}>
            {(a11y) => (
              <div className={styles.secretRow}>
                <TextInput {...a11y} value={secret} readOnly monospace block onFocus={(e) => e.target.select()} />
                <Button leadingVisual={CopyIcon} onClick={() => void copy()}>
                  {copied ? tx('copied') : tx('copy')}
                </Button>
              </div>
            )}
          </Field>
          <p className={styles.hint}>{tx('howToUse')}</p>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      title={tx('createTitle')}
      onClose={onClose}
      width="large"
      footerButtons={[
        { content: tx('cancel'), onClick: onClose },
        {
          content: loading ? tx('creating') : tx('create'),
          buttonType: 'primary',
          onClick: () => void submit(),
          disabled: loading,
        },
      ]}
    >
      <form
        className={styles.dialog}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        {failed && <Banner variant="critical" title={tx('createFailedTitle')} description={failed} />}
        <Field label={tx('name')} caption={tx('nameCaption')} required error={errors.name}>
          {(a11y) => (
            <TextInput
              {...a11y}
              ref={nameRef}
              value={name}
              onChange={(e) => setName(e.target.value)}
              block
              autoFocus
              maxLength={100}
            />
          )}
        </Field>
        <Field label={tx('role')} caption={tx('roleCaption')} error={errors.role}>
          {(a11y) => (
            <Select {...a11y} value={role} onChange={(e) => setRole(e.target.value as EmployeeRole)} block>
              {ROLES.map((r) => (
                <Select.Option key={r} value={r}>
                  {t(`role.${r}`)}
                </Select.Option>
              ))}
            </Select>
          )}
        </Field>
        <CheckboxField label={tx('readOnly')} caption={tx('readOnlyCaption')}>
          {(a11y) => <Checkbox {...a11y} checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />}
        </CheckboxField>
        <Field label={tx('expires')} caption={tx('expiresCaption')} error={errors.expiresAt}>
          {(a11y) => <TextInput {...a11y} type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  );
}
