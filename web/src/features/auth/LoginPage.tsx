import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Banner, Button, Checkbox, Heading, TextInput } from '@primer/react';
import { appApollo } from '../../app/apollo';
import { AuthSettingsQuery, LoginMutation, LoginWithGoogleMutation, MeQuery } from '../../app/auth/operations';
import { safeNext, type SessionUser } from '../../app/auth/session';
import { writeStoredLogin } from '../../app/auth/user-cache';
import { prerenderedInputs } from '../../app/boot/prerendered';
import { useDocumentTitle, useI18n } from '../../app/i18n';
import { LanguageToggle } from '../../app/layout/LanguageToggle';
import { defaultLandingPath } from '../../app/use-narrow';
import { CheckboxField, Field } from '../../components/Field';
import { GoogleSignIn } from './GoogleSignIn';
import { describeLoginError, type LoginProblem } from './login-errors';
import styles from './LoginPage.module.css';

/** /login: ID and password, Remember Me, and Google sign-in when the server has it configured. */
export default function LoginPage() {
  const { t, locale } = useI18n();
  useDocumentTitle(t('page.login'));
  const navigate = useNavigate();
  const client = useApolloClient();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const reason = params.get('reason');

  const me = useQuery(MeQuery);
  const settings = useQuery(AuthSettingsQuery);
  const [login] = useMutation(LoginMutation);
  const [loginWithGoogle] = useMutation(LoginWithGoogleMutation);

  // The pre-rendered page may have been typed in before this first render replaces it.
  const [early] = useState(prerenderedInputs);
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  // A press of ログイン before the app ran: submitted once the fields' values are in the state.
  const [earlySubmit, setEarlySubmit] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    // What the fields hold now, at the commit that replaced them (before the browser paints).
    const { loginId, password, rememberMe } = early.inputs;
    if (loginId?.value) setLoginId(loginId.value);
    if (password?.value) setPassword(password.value);
    if (rememberMe?.checked) setRememberMe(true);
    if (early.submitRequested()) setEarlySubmit(true);
  }, [early]);
  useEffect(() => {
    if (!earlySubmit) return;
    setEarlySubmit(false);
    formRef.current?.requestSubmit();
  }, [earlySubmit]);
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<LoginProblem | null>(null);
  const idRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const rememberRef = useRef(rememberMe);
  rememberRef.current = rememberMe;

  const target = next ?? defaultLandingPath();

  const signedIn = async (employee: SessionUser) => {
    writeStoredLogin({ employee_id: employee.id, full_name: employee.name, role: employee.role });
    client.writeQuery({ query: MeQuery, data: { me: employee } });
    appApollo().restartRealtime(); // any socket opened before now carried no session
    navigate(target, { replace: true });
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const fieldErrors: LoginProblem['fieldErrors'] = {};
    if (!loginId.trim()) fieldErrors.loginId = t('login.required.loginId');
    if (!password) fieldErrors.password = t('login.required.password');
    if (fieldErrors.loginId || fieldErrors.password) {
      setProblem({ message: '', fieldErrors });
      (fieldErrors.loginId ? idRef : passwordRef).current?.focus();
      return;
    }
    setSubmitting(true);
    setProblem(null);
    try {
      const { data } = await login({ variables: { input: { loginId: loginId.trim(), password, rememberMe } } });
      if (!data) throw new Error('empty login result');
      await signedIn(data.login.employee);
    } catch (err) {
      const p = describeLoginError(err, locale, t, 'password');
      setProblem(p);
      setPassword('');
      setSubmitting(false);
      (p.fieldErrors.loginId ? idRef : passwordRef).current?.focus();
    }
  };

  const onGoogleCredential = async (credential: string) => {
    setSubmitting(true);
    setProblem(null);
    try {
      const { data } = await loginWithGoogle({ variables: { credential, rememberMe: rememberRef.current } });
      if (!data) throw new Error('empty login result');
      await signedIn(data.loginWithGoogle.employee);
    } catch (err) {
      setProblem(describeLoginError(err, locale, t, 'google'));
      setSubmitting(false);
    }
  };

  if (me.data?.me && !submitting) return <Navigate to={target} replace />;

  const googleClientId = settings.data?.authSettings.googleClientId ?? null;
  const errorMessage = problem?.message;

  return (
    <div className={styles.screen}>
      <header className={styles.top}>
        <div className={styles.brand}>
          <span className={styles.logo} aria-hidden="true">
            <svg viewBox="0 0 32 32" width="28" height="28" focusable="false">
              <rect width="32" height="32" rx="7" fill="currentColor" />
              <path d="M9 10h14v3H9zm0 5h14v3H9zm0 5h9v3H9z" fill="#fff" />
            </svg>
          </span>
          <span className={styles.brandName}>{t('app.name')}</span>
        </div>
        <LanguageToggle />
      </header>

      <main className={styles.main}>
        <div className={styles.card}>
          <Heading as="h1" className={styles.title}>
            {t('login.title')}
          </Heading>
          <p className={styles.lead}>{t('login.lead')}</p>

          {reason === 'signedOut' && !errorMessage && (
            <Banner variant="success" title={t('login.signedOut')} className={styles.banner} />
          )}
          {reason === 'expired' && !errorMessage && (
            <Banner variant="warning" title={t('login.sessionExpired')} className={styles.banner} />
          )}
          <div role="alert" aria-live="assertive" className={errorMessage ? styles.alertSlot : undefined}>
            {errorMessage && (
              <Banner
                variant="critical"
                title={t('login.errorTitle')}
                description={errorMessage}
                data-testid="login-error"
                className={styles.banner}
              />
            )}
          </div>

          <form ref={formRef} className={styles.form} onSubmit={(e) => void onSubmit(e)} noValidate>
            <Field label={t('login.loginId')} required error={problem?.fieldErrors.loginId}>
              {(a11y) => (
                <TextInput
                  {...a11y}
                  ref={idRef}
                  name="loginId"
                  value={loginId}
                  onChange={(e) => setLoginId(e.target.value)}
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  autoFocus={!early.focused || early.focused === 'loginId'}
                  block
                  size="large"
                  validationStatus={problem?.fieldErrors.loginId ? 'error' : undefined}
                />
              )}
            </Field>

            <Field label={t('login.password')} required error={problem?.fieldErrors.password}>
              {(a11y) => (
                <TextInput
                  {...a11y}
                  ref={passwordRef}
                  name="password"
                  type="password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  autoComplete="current-password"
                  autoFocus={early.focused === 'password'}
                  block
                  size="large"
                  validationStatus={problem?.fieldErrors.password ? 'error' : undefined}
                />
              )}
            </Field>

            <CheckboxField label={t('login.rememberMe')} caption={t('login.rememberMeCaption')}>
              {(a11y) => (
                <Checkbox
                  {...a11y}
                  name="rememberMe"
                  checked={rememberMe}
                  onChange={(e) => setRememberMe(e.target.checked)}
                  autoFocus={early.focused === 'rememberMe'}
                />
              )}
            </CheckboxField>

            <Button
              type="submit"
              variant="primary"
              size="large"
              block
              loading={submitting}
              loadingAnnouncement={t('login.submitting')}
            >
              {t('login.submit')}
            </Button>
          </form>

          {googleClientId && (
            <>
              <div className={styles.divider} role="separator">
                <span>{t('login.or')}</span>
              </div>
              <GoogleSignIn
                clientId={googleClientId}
                onCredential={(c) => void onGoogleCredential(c)}
                disabled={submitting}
              />
            </>
          )}
        </div>
        <p className={styles.footer}>{t('login.footer')}</p>
      </main>
    </div>
  );
}
