import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { IconButton, TextInput } from '@primer/react';
import { EyeClosedIcon, EyeIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { Field } from '../../components/Field';
import { ViewItem } from '../../components/FormFields';
import { toast } from '../../components/Toast';
import type { DeviceKind, DeviceSecret } from '../../gql/graphql';
import { RevealDeviceSecretMutation } from './operations';
import styles from './devices.module.css';

const MASK = '●●●●';

/**
 * A PIN code or password: masked until someone presses 表示, which asks the server for the value
 * (the server records the reveal in the device's history). In edit mode a password input whose own
 * 表示 also goes through the server while it still holds the saved value; a value the editor typed
 * is theirs and toggles locally. A new device has nothing saved: its toggle is local too.
 */
export function SecretField(props: {
  kind: DeviceKind;
  /** The saved device; null while registering a new one. */
  id: number | null;
  secret: DeviceSecret;
  label: string;
  value: string;
  saved: string;
  onChange(v: string): void;
  readOnly: boolean;
  error?: string;
  onRevealed(): void;
}) {
  const { kind, id, secret, label, value, saved, onChange, readOnly, error, onRevealed } = props;
  const t = useT();
  const [shown, setShown] = useState<string | null>(null);
  const [reveal, { loading }] = useMutation(RevealDeviceSecretMutation, { fetchPolicy: 'no-cache' });

  const show = async () => {
    if (id === null || (!readOnly && value !== saved)) return setShown(value);
    try {
      const r = await reveal({ variables: { kind, id, secret } });
      setShown(r.data?.revealDeviceSecret ?? '');
      onRevealed();
    } catch {
      toast.error(t('secret.revealFailed', { label }));
    }
  };
  const toggle = (
    <IconButton
      icon={shown === null ? EyeIcon : EyeClosedIcon}
      aria-label={shown === null ? t('secret.show') : t('secret.hide')}
      size="small"
      variant="invisible"
      disabled={loading}
      onClick={() => (shown === null ? void show() : setShown(null))}
    />
  );

  if (readOnly) {
    if (!saved) return <ViewItem label={label} value="" />;
    return (
      <ViewItem
        label={label}
        value={
          <span className={styles.secret}>
            <span data-testid={`secret-${secret}`} className={shown === null ? styles.secretMask : undefined}>
              {shown === null ? MASK : shown || t('device.none')}
            </span>
            {toggle}
          </span>
        }
      />
    );
  }
  return (
    <div>
      <Field label={label} error={error}>
        {(c) => (
          <TextInput
            {...c}
            block
            type={shown === null ? 'password' : 'text'}
            value={value}
            autoComplete="new-password"
            onChange={(e) => {
              onChange(e.target.value);
              if (shown !== null) setShown(e.target.value);
            }}
            trailingAction={
              value ? (
                <TextInput.Action
                  icon={shown === null ? EyeIcon : EyeClosedIcon}
                  aria-label={shown === null ? t('secret.show') : t('secret.hide')}
                  disabled={loading}
                  onClick={() => (shown === null ? void show() : setShown(null))}
                />
              ) : undefined
            }
          />
        )}
      </Field>
    </div>
  );
}
