import { ApolloLink } from '@apollo/client';
import { filter, map } from 'rxjs';

/*
 * The registration race of live screens, for every screen at once (the server's half and the
 * reasoning: graph/src/platform/live/position.ts). A query answers the event position it reflects;
 * a subscription's first frame says the position its server had delivered when it registered. A
 * query at or below a registration it may have missed (answered before that registration, or sent
 * before it) is refetched, once: the refetch is sent after the registration, so the subscription
 * carries whatever comes after it. Nothing delivered in between: nothing refetched.
 */

const keyOf = (name: string | undefined, variables: object | undefined) =>
  `${name}\u0000${JSON.stringify(variables ?? {})}`;

/** Each answered query's position, by operation and variables. */
const answered = new Map<string, bigint>();
/** Queries in flight: judged when they answer, against the registrations seen since they were sent. */
const inFlight = new Map<string, number>();
/** The most recent registrations, numbered in arrival order. */
const registrations: { at: number; position: bigint }[] = [];
let seen = 0;

/** Screens that read with client.query (no watched query to refetch): their own re-read, by operation name. */
const rereaders = new Map<string, () => void>();

/** A screen that reads `operationName` itself (client.query) re-reads with `reread` when its answer is stale. */
export function whenStale(operationName: string, reread: () => void): () => void {
  rereaders.set(operationName, reread);
  return () => void (rereaders.get(operationName) === reread && rereaders.delete(operationName));
}

function refetch(client: ApolloLink.Operation['client'], stale: (key: string) => boolean) {
  for (const q of client.getObservableQueries('active'))
    if (stale(keyOf(q.queryName, q.variables))) void q.refetch().catch(() => undefined);
  for (const [name, reread] of rereaders)
    if ([...answered.keys()].some((k) => k.startsWith(`${name}\u0000`) && stale(k))) reread();
}

/** On the HTTP link: asks the server for each query's position and judges the answer. */
export const queryPositions = new ApolloLink((operation, forward) => {
  if (operation.operationType !== 'query') return forward(operation);
  const key = keyOf(operation.operationName, operation.variables);
  const since = seen;
  inFlight.set(key, since);
  return forward(operation).pipe(
    map((result) => {
      if (inFlight.get(key) === since) inFlight.delete(key);
      const position = result.extensions?.livePosition;
      if (typeof position === 'string') {
        const p = BigInt(position);
        answered.set(key, p);
        if (registrations.some((r) => r.at > since && r.position >= p))
          setTimeout(() => refetch(operation.client, (k) => k === key));
      }
      return result;
    }),
  );
});

/**
 * On the subscription link: asks for the registration frame, takes it out of the stream (the
 * screen never sees it) and refetches the answered queries at or below it.
 */
export const registrationFrames = new ApolloLink((operation, forward) => {
  operation.extensions = { ...operation.extensions, livePosition: true };
  return forward(operation).pipe(
    filter((result) => {
      const position = result.extensions?.livePosition;
      if (typeof position !== 'string' || result.data !== undefined) return true;
      const p = BigInt(position);
      registrations.push({ at: ++seen, position: p });
      if (registrations.length > 32) registrations.shift();
      refetch(operation.client, (k) => !inFlight.has(k) && (answered.get(k) ?? p + 1n) <= p);
      return false;
    }),
  );
});
