import { useEffect, useRef, useState } from 'react';
import { Text } from '@primer/react';
import { useI18n } from '../../app/i18n';
import { loadGsi } from './gsi';
import styles from './LoginPage.module.css';

/** The Google button (rendered by Google Identity Services); the credential goes to loginWithGoogle. */
export function GoogleSignIn({
  clientId,
  onCredential,
  disabled,
}: {
  clientId: string;
  onCredential(credential: string): void;
  disabled: boolean;
}) {
  const { locale, t } = useI18n();
  const host = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  callback.current = onCredential;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    setState('loading');
    loadGsi()
      .then((google) => {
        const el = host.current;
        if (cancelled || !el) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: (r) => callback.current(r.credential),
          auto_select: false,
          ux_mode: 'popup',
          itp_support: true,
        });
        el.replaceChildren();
        google.accounts.id.renderButton(el, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          text: 'signin_with',
          shape: 'rectangular',
          logo_alignment: 'center',
          width: Math.min(400, Math.max(200, Math.floor(el.clientWidth))),
          locale,
        });
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, locale]);

  return (
    <div className={styles.google} aria-busy={state === 'loading'} data-disabled={disabled || undefined}>
      <div ref={host} className={styles.googleButton} data-testid="google-signin" />
      {state === 'loading' && (
        <Text as="p" size="small" className={styles.muted}>
          {t('login.googleLoading')}
        </Text>
      )}
      {state === 'failed' && (
        <Text as="p" size="small" className={styles.muted} role="status">
          {t('login.googleScriptFailed')}
        </Text>
      )}
    </div>
  );
}
