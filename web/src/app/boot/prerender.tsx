import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { prerender } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import { Observable } from 'rxjs';
import { AppProviders } from '../AppProviders';
import { AppRoutes } from '../router';

/**
 * The app's first render at `url` as HTML, for the build (web/scripts/prerender.mjs): the same
 * providers and route table as the app, with no session and no answer from the server yet, which is
 * exactly what a browser shows before its first GraphQL answer: the sign-in page on /login, the
 * session check everywhere else. Lazy screens are waited for, as the app's first render (a
 * transition, main.tsx) waits for its preloaded route chunk.
 */
export async function prerenderFirstScreen(url: string): Promise<string> {
  // Nothing is asked of a server at build time: every query stays loading, as on a first load.
  const client = new ApolloClient({
    link: new ApolloLink(() => new Observable<ApolloLink.Result>(() => undefined)),
    cache: new InMemoryCache(),
  });
  const { prelude } = await prerender(
    <AppProviders client={client}>
      <MemoryRouter initialEntries={[url]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  return new Response(prelude).text();
}
