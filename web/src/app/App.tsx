import { UNSAFE_createBrowserHistory as createBrowserHistory, unstable_HistoryRouter as HistoryRouter } from 'react-router-dom';
import { ApolloProvider } from '@apollo/client/react';
import { BaseStyles } from '@primer/react';
import { ThemeProvider } from '@primer/react/next';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { ErrorNotice } from '../components/ErrorNotice';
import { appApollo } from './apollo';
import { I18nProvider } from './i18n';
import { LeaveGuardDialog } from './LeaveGuardDialog';
import { appLeaveGate, guardHistory } from './leave-guard';
import { AppRoutes } from './router';

/** The browser history the router reads, with the unsaved-edits guard in front (leave-guard.ts). */
const history = guardHistory(createBrowserHistory({ window, v5Compat: true }), appLeaveGate);

export function App() {
  return (
    <ThemeProvider colorMode="light" dayScheme="light" nightScheme="dark">
      <BaseStyles>
        <I18nProvider>
          <ApolloProvider client={appApollo().client}>
            <ErrorBoundary fallback={() => <ErrorNotice fill="screen" />}>
              <HistoryRouter history={history}>
                <AppRoutes />
              </HistoryRouter>
              <LeaveGuardDialog />
            </ErrorBoundary>
          </ApolloProvider>
        </I18nProvider>
      </BaseStyles>
    </ThemeProvider>
  );
}
