import { useRef, useState, type FormEvent } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Banner, Button, Heading, TextInput } from '@primer/react';
import { appApollo } from '../../app/apollo';
import { ChangeOwnPasswordMutation, MeQuery } from '../../app/auth/operations';
import { useLogout } from '../../app/auth/session';
import { useDocumentTitle, useI18n } from '../../app/i18n';
import { LanguageToggle } from '../../app/layout/LanguageToggle';
import { Field, type FieldControlProps } from '../../components/Field';
import { readError } from '../../components/gql-errors';
import styles from './LoginPage.module.css';

type Fields = 'currentPassword' | 'newPassword' | 'confirm';

/**
 * Shown instead of every screen while the session's password is a one-time one (the first
 * administrator's, or one an operator reset): the server refuses everything else until it is
 * replaced. On success the server starts a new session; the app goes on where it was.
 */
export default function ChangePasswordScreen({ name }: { name: string }) {
  const { t, locale } = useI18n();
  useDocumentTitle(t('password.title'));
  const client = useApolloClient();
  const [change] = useMutation(ChangeOwnPasswordMutation);
  const { logout, loggingOut } = useLogout();
  const [values, setValues] = useState<Record<Fields, string>>({ currentPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const refs = {
    currentPassword: useRef<HTMLInputElement>(null),
    newPassword: useRef<HTMLInputElement>(null),
    confirm: useRef<HTMLInputElement>(null),
  };

  const focusFirst = (e: Partial<Record<Fields, string>>) =>
    (['currentPassword', 'newPassword', 'confirm'] as Fields[]).find((f) => e[f]) ?? null;

  const onSubmit = async (ev: FormEvent) => {
    ev.preventDefault();
    if (submitting) return;
    const found: Partial<Record<Fields, string>> = {};
    for (const f of ['currentPassword', 'newPassword', 'confirm'] as Fields[])
      if (!values[f]) found[f] = t('password.required');
    if (!found.confirm && !found.newPassword && values.newPassword !== values.confirm)
      found.confirm = t('password.mismatch');
    setErrors(found);
    setMessage(null);
    const first = focusFirst(found);
    if (first) return refs[first].current?.focus();
    setSubmitting(true);
    try {
      const { data } = await change({
        variables: { input: { currentPassword: values.currentPassword, newPassword: values.newPassword } },
      });
      client.writeQuery({ query: MeQuery, data: { me: data!.changeOwnPassword.employee } });
      appApollo().restartRealtime(); // the old session's socket has ended
    } catch (err) {
      const e = readError(err);
      const fieldErrors: Partial<Record<Fields, string>> = {};
      if (e.fieldErrors.currentPassword) fieldErrors.currentPassword = e.fieldErrors.currentPassword;
      if (e.fieldErrors.newPassword) fieldErrors.newPassword = e.fieldErrors.newPassword;
      setErrors(fieldErrors);
      // One message per failure: a field's own error says it; anything else goes in the banner.
      const fieldSaid = Object.keys(fieldErrors).length > 0;
      setMessage(
        fieldSaid
          ? null
          : locale === 'ja' && e.message && e.code !== 'INTERNAL_SERVER_ERROR' && e.code !== 'NETWORK'
            ? e.message
            : t('password.failed'),
      );
      setSubmitting(false);
      refs[focusFirst(fieldErrors) ?? 'currentPassword'].current?.focus();
    }
  };

  const input = (field: Fields, autoComplete: string) => (a11y: FieldControlProps) => (
    <TextInput
      {...a11y}
      ref={refs[field]}
      name={field}
      type="password"
      value={values[field]}
      onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
      autoComplete={autoComplete}
      autoFocus={field === 'currentPassword'}
      block
      size="large"
      validationStatus={errors[field] ? 'error' : undefined}
    />
  );

  return (
    <div className={styles.screen} data-testid="change-password">
      <header className={styles.top}>
        <span className={styles.brandName}>{t('app.name')}</span>
        <LanguageToggle />
      </header>
      <main className={styles.main}>
        <div className={styles.card}>
          <Heading as="h1" className={styles.title}>
            {t('password.title')}
          </Heading>
          <p className={styles.lead}>{t('password.lead', { name })}</p>
          <div role="alert" aria-live="assertive" className={message ? styles.alertSlot : undefined}>
            {message && (
              <Banner
                variant="critical"
                title={t('password.errorTitle')}
                description={message}
                className={styles.banner}
              />
            )}
          </div>
          <form className={styles.form} onSubmit={(e) => void onSubmit(e)} noValidate>
            <Field label={t('password.current')} required error={errors.currentPassword}>
              {input('currentPassword', 'current-password')}
            </Field>
            <Field label={t('password.new')} caption={t('password.newCaption')} required error={errors.newPassword}>
              {input('newPassword', 'new-password')}
            </Field>
            <Field label={t('password.confirm')} required error={errors.confirm}>
              {input('confirm', 'new-password')}
            </Field>
            <Button
              type="submit"
              variant="primary"
              size="large"
              block
              loading={submitting}
              loadingAnnouncement={t('password.submitting')}
            >
              {t('password.submit')}
            </Button>
            <Button variant="invisible" block onClick={() => void logout()} disabled={loggingOut}>
              {t('password.signOut')}
            </Button>
          </form>
        </div>
      </main>
    </div>
  );
}
