import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useApolloClient, useSubscription } from '@apollo/client/react';
import { Banner } from '@primer/react';
import { CenteredSpinner } from '../../components/CenteredStatus';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { ErrorNotice } from '../../components/ErrorNotice';
import { EmployeeChangedSubscription, MeQuery } from '../auth/operations';
import { useLogout, useSession } from '../auth/session';
import { useT } from '../i18n';
import { useNarrow } from '../use-narrow';
import { AppHeader } from './AppHeader';
import { SideNav } from './SideNav';
import styles from './AppShell.module.css';

/** Header, the desktop sidebar (none under 440 px) and the page. */
export default function AppShell({ serverUnreachable, onRetry }: { serverUnreachable: boolean; onRetry(): void }) {
  const t = useT();
  const narrow = useNarrow();
  const client = useApolloClient();
  const { pathname } = useLocation();
  const { user, unconfirmed } = useSession();
  const { logout, loggingOut, failed, dismissFailure } = useLogout();

  // A change to the signed-in employee (role, name) reaches the shell live.
  useSubscription(EmployeeChangedSubscription, {
    skip: unconfirmed,
    onData: ({ data }) => {
      if (data.data?.employeeChanged.employeeId === user.id) void client.refetchQueries({ include: [MeQuery] });
    },
  });

  return (
    <div className={styles.shell} data-layout={narrow ? 'narrow' : 'wide'}>
      <a className={styles.skipLink} href="#main-content">
        {t('app.skipToContent')}
      </a>
      <AppHeader narrow={narrow} onLogout={() => void logout()} loggingOut={loggingOut} />
      <div className={styles.body}>
        {!narrow && (
          <aside className={styles.sidebar}>
            <SideNav />
          </aside>
        )}
        <main id="main-content" className={styles.main} tabIndex={-1}>
          {(serverUnreachable || failed) && (
            <div className={styles.notices}>
              {serverUnreachable && (
                <Banner
                  variant="warning"
                  title={t('auth.errorTitle')}
                  description={t('auth.errorBody')}
                  primaryAction={<Banner.PrimaryAction onClick={onRetry}>{t('auth.retry')}</Banner.PrimaryAction>}
                />
              )}
              {failed && <Banner variant="critical" title={t('header.logoutFailed')} onDismiss={dismissFailure} />}
            </div>
          )}
          <ErrorBoundary resetKey={pathname} fallback={() => <ErrorNotice />}>
            <Suspense fallback={<CenteredSpinner fill="area" label={t('common.loading')} />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
