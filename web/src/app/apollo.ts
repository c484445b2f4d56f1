import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { ErrorLink } from '@apollo/client/link/error';
import { isSubscriptionOperation } from '@apollo/client/utilities';
import { Observable, type Subscription } from 'rxjs';
import type { Client } from 'graphql-ws/client';
import type { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { queryPositions, registrationFrames } from './live-position';

/** Operations that are expected to answer UNAUTHENTICATED without meaning "your session ended". */
const AUTH_OPERATIONS = new Set(['Login', 'LoginWithGoogle', 'Logout', 'Me', 'AuthSettings']);

/** Fired when the server says the session is gone in the middle of using the app. */
const sessionEvents = new EventTarget();
const SESSION_EXPIRED = 'session-expired';

function wsUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/graphql`;
}

export interface AppApollo {
  client: ApolloClient;
  sessionEvents: EventTarget;
  SESSION_EXPIRED: string;
  /** Closes the WebSocket so the next subscription connects with the current session cookie. */
  restartRealtime(): void;
  /** While this tab signs out itself, the server's closing of its socket (4401) is no news. */
  signingOut(on: boolean): void;
}

function createApollo(): AppApollo {
  // The session is the HttpOnly cookie; same-origin requests carry it. The preflight header satisfies
  // Apollo Server's CSRF prevention for any request shape.
  const http = new HttpLink({
    uri: '/graphql',
    credentials: 'same-origin',
    // x-live-position: queries answer the event position they reflect (live-position.ts).
    headers: { 'apollo-require-preflight': 'true', 'x-live-position': '1' },
  });

  // Subscriptions go over graphql-ws. Its code loads with the first subscription (not in the first
  // chunk); the socket opens then and closes when none is left. The browser sends the session
  // cookie on the upgrade request and the server authenticates from it.
  let ws: Promise<{ client: Client; link: GraphQLWsLink }> | undefined;
  let signingOut = false;
  const loadWs = () =>
    (ws ??= Promise.all([import('graphql-ws/client'), import('@apollo/client/link/subscriptions')]).then(
      ([{ createClient }, { GraphQLWsLink }]) => {
        // 4401: the server ended this session (signed out here or elsewhere, revoked): no retry, the
        // app shows the sign-in screen. 4000: the session changed (e.g. its role): reconnect at once.
        const ended = (e: unknown) => (e as CloseEvent | undefined)?.code === 4401;
        const client = createClient({
          url: wsUrl,
          lazy: true,
          retryAttempts: 5,
          shouldRetry: (e) => !ended(e),
          on: {
            closed: (e) => void (ended(e) && !signingOut && sessionEvents.dispatchEvent(new Event(SESSION_EXPIRED))),
          },
        });
        return { client, link: new GraphQLWsLink(client) };
      },
    ));
  const realtime = new ApolloLink(
    (operation) =>
      new Observable<ApolloLink.Result>((observer) => {
        let sub: Subscription | undefined;
        let closed = false;
        loadWs().then(
          ({ link }) => {
            if (!closed) sub = link.request(operation).subscribe(observer);
          },
          (err: unknown) => observer.error(err),
        );
        return () => {
          closed = true;
          sub?.unsubscribe();
        };
      }),
  );

  const errors = new ErrorLink(({ error, operation }) => {
    if (!CombinedGraphQLErrors.is(error) || AUTH_OPERATIONS.has(operation.operationName ?? '')) return;
    // While this tab signs out, a query answered after the session ended (its socket closed first) is no news either.
    if (!signingOut && error.errors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) {
      sessionEvents.dispatchEvent(new Event(SESSION_EXPIRED));
    }
  });

  const transport = ApolloLink.split(
    ({ query }) => isSubscriptionOperation(query),
    ApolloLink.from([registrationFrames, realtime]),
    ApolloLink.from([queryPositions, http]),
  );

  const client = new ApolloClient({
    link: ApolloLink.from([errors, transport]),
    cache: new InMemoryCache({
      // Reference objects (a department, a location, an entry's owner or guest) are values, not
      // entities: a department and a location may share an id, so they must not be normalised.
      typePolicies: {
        NamedRef: { keyFields: false },
        EmployeeRef: { keyFields: false },
        ScheduleOwner: { keyFields: false },
        ScheduleGuest: { keyFields: false },
      },
    }),
    defaultOptions: {
      watchQuery: { fetchPolicy: 'cache-first' },
    },
  });

  return {
    client,
    sessionEvents,
    SESSION_EXPIRED,
    restartRealtime: () => void ws?.then(({ client }) => client.terminate()),
    signingOut: (on) => void (signingOut = on),
  };
}

let instance: AppApollo | undefined;

/** The one Apollo client of the page. */
export function appApollo(): AppApollo {
  instance ??= createApollo();
  return instance;
}
