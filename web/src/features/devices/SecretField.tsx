import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { IconButton, TextInput } from '@primer/react';
import { EyeClosedIcon, EyeIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { Field } from '../../components/Field';
import { ViewItem } from '../../components/FormFields';
import { toast } from '../../components/Toast';
import type { DeviceKind, DeviceSecret } from '../../gql/graphql';
import { RevealDeviceSecretMutation } from './device.operations';
import styles from './devices.module.css';

const MASK = '●●●●';

/** A secret for the update: null (untouched) is left out, so the server keeps what it holds; '' clears. */
export const secretInput = (v: string | null): string | null | undefined => (v === null ? undefined : v.trim() || null);

/**
 * A PIN code or password. The screens never load the value: the view only says whether one is set.
 * 表示 asks the server for it (which records the reveal in the device's history). In edit mode the
 * input starts empty and untouched (value null: the save leaves it out and the server keeps it); its
 * own 表示 fetches the saved value into the input the same way, and what the editor types replaces it
 * (emptying the input clears it). A value the editor typed, or a new device's, toggles locally.
 */
export function SecretField(props: {
  kind: DeviceKind;
  /** The saved device; null while registering a new one. */
  id: number | null;
  secret: DeviceSecret;
  label: string;
  /** null: untouched since loading. */
  value: string | null;
  /** The saved device holds a value. */
  isSet: boolean;
  onChange(v: string): void;
  readOnly: boolean;
  error?: string;
  onRevealed(): void;
}) {
  const { kind, id, secret, label, value, isSet, onChange, readOnly, error, onRevealed } = props;
  const t = useT();
  const [shown, setShown] = useState<string | null>(null);
  const [reveal, { loading }] = useMutation(RevealDeviceSecretMutation, { fetchPolicy: 'no-cache' });
  const fromServer = id !== null && isSet && value === null;

  const show = async () => {
    if (!fromServer) return setShown(value ?? '');
    try {
      const r = await reveal({ variables: { kind, id, secret } });
      setShown(r.data?.revealDeviceSecret ?? '');
      onRevealed();
    } catch {
      toast.error(t('secret.revealFailed', { label }));
    }
  };
  const toggleLabel = shown === null ? t('secret.show') : t('secret.hide');
  const toggleIcon = shown === null ? EyeIcon : EyeClosedIcon;
  const toggle = () => (shown === null ? void show() : setShown(null));

  if (readOnly) {
    if (!isSet) return <ViewItem label={label} value="" />;
    return (
      <ViewItem
        label={label}
        value={
          <span className={styles.secret}>
            <span data-testid={`secret-${secret}`} className={shown === null ? styles.secretMask : undefined}>
              {shown === null ? MASK : shown || t('device.none')}
            </span>
            <IconButton
              icon={toggleIcon}
              aria-label={toggleLabel}
              size="small"
              variant="invisible"
              disabled={loading}
              onClick={toggle}
            />
          </span>
        }
      />
    );
  }
  // Untouched and revealed: the input shows the saved value until the editor types.
  const inputValue = value ?? (fromServer ? (shown ?? '') : '');
  return (
    <div>
      <Field label={label} error={error}>
        {(c) => (
          <TextInput
            {...c}
            block
            type={shown === null ? 'password' : 'text'}
            value={inputValue}
            placeholder={fromServer && shown === null ? t('secret.keptPlaceholder') : undefined}
            autoComplete="new-password"
            onChange={(e) => {
              onChange(e.target.value);
              if (shown !== null) setShown(e.target.value);
            }}
            trailingAction={
              inputValue || fromServer ? (
                <TextInput.Action icon={toggleIcon} aria-label={toggleLabel} disabled={loading} onClick={toggle} />
              ) : undefined
            }
          />
        )}
      </Field>
    </div>
  );
}
