import { BrowserRouter } from 'react-router-dom';
import { ApolloProvider } from '@apollo/client/react';
import { BaseStyles } from '@primer/react';
import { ThemeProvider } from '@primer/react/next';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { ErrorNotice } from '../components/ErrorNotice';
import { appApollo } from './apollo';
import { I18nProvider } from './i18n';
import { AppRoutes } from './router';

export function App() {
  return (
    <ThemeProvider colorMode="light" dayScheme="light" nightScheme="dark">
      <BaseStyles>
        <I18nProvider>
          <ApolloProvider client={appApollo().client}>
            <ErrorBoundary fallback={() => <ErrorNotice fill="screen" />}>
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </ErrorBoundary>
          </ApolloProvider>
        </I18nProvider>
      </BaseStyles>
    </ThemeProvider>
  );
}
