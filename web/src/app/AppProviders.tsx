import type { ReactNode } from 'react';
import type { ApolloClient } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { BaseStyles } from '@primer/react';
import { ThemeProvider } from '@primer/react/next';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { ErrorNotice } from '../components/ErrorNotice';
import { I18nProvider } from './i18n';

/**
 * Everything around the routes: theme, base styles, messages, the GraphQL client and the last-resort
 * error screen. The app (App.tsx) and the build's pre-rendered first screens (boot/prerender.tsx)
 * render the same tree, so the pre-rendered HTML is the app's own first render.
 */
export function AppProviders({ client, children }: { client: ApolloClient; children: ReactNode }) {
  return (
    <ThemeProvider colorMode="light" dayScheme="light" nightScheme="dark">
      <BaseStyles>
        <I18nProvider>
          <ApolloProvider client={client}>
            <ErrorBoundary fallback={() => <ErrorNotice fill="screen" />}>{children}</ErrorBoundary>
          </ApolloProvider>
        </I18nProvider>
      </BaseStyles>
    </ThemeProvider>
  );
}
