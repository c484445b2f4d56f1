import type { ApolloServerPlugin } from '@apollo/server';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events';
import type { AppContext } from '../context.js';
import type { LivePubSub } from './pubsub.js';

/*
 * The registration race of live screens. A screen reads its queries, then registers its
 * subscription; a change committed in between, and delivered to the instance before the
 * registration, reaches neither. Positions in the event stream close that gap, for every screen:
 *
 * - an event's position is the id of the transaction that recorded it (xid8, envelope.position):
 *   one number the whole cluster agrees on, whatever instance or Kafka partition delivers it;
 * - a query answer reports `extensions.livePosition` = the xmin of a snapshot taken before any of
 *   its reads: every transaction below it had ended before the first read, so an event the answer
 *   may not reflect has a position at or above it;
 * - a subscription's first frame (`{extensions: {livePosition}}`, before any event) reports the
 *   highest position this instance had delivered when it registered: what came later reaches it.
 *
 * The client refetches a query when a subscription's position is at or above the query's: some
 * event it may have missed was delivered before the registration. When nothing was delivered in
 * between, the subscription's position is below and nothing is refetched. Both are opt-in (the
 * `x-live-position` header on queries, the `livePosition` extension on subscriptions), so tools and
 * benchmarks that ask for neither see no change and pay nothing.
 */

/** Highest position published to each pubsub (this instance's live delivery). */
const published = new WeakMap<LivePubSub, bigint>();

/** Called by the fan-out for each event it publishes, before it publishes it. */
export function notePublished(pubsub: LivePubSub, e: EventEnvelope): void {
  if (e.position === undefined) return;
  const p = BigInt(e.position);
  if (p > (published.get(pubsub) ?? 0n)) published.set(pubsub, p);
}

/** The highest position this instance has published so far ('0': none yet). */
export const publishedPosition = (pubsub: LivePubSub): string => String(published.get(pubsub) ?? 0n);

/** The position below which every event's transaction had ended: taken before a query reads. */
export async function snapshotPosition(em: EntityManager): Promise<string> {
  const [row] = await em
    .getConnection()
    .execute<{ p: string }[]>(`select pg_snapshot_xmin(pg_current_snapshot())::text as p`);
  return row!.p;
}

/** The position a query answer reports, per request (lowered by answers served from a cache). */
const answered = new WeakMap<AppContext, bigint>();

/**
 * An answer served from a cache reflects the database as it was when the cache was filled: the
 * request reports that older position (it may only go down).
 */
export function reflectsOnlyUpTo(ctx: AppContext, position: string): void {
  const p = BigInt(position);
  const now = answered.get(ctx);
  if (now !== undefined && p < now) answered.set(ctx, p);
}

/** The position taken for this request before it read (undefined: it did not ask for one). */
export const positionOfAnswer = (ctx: AppContext): string | undefined => {
  const p = answered.get(ctx);
  return p === undefined ? undefined : String(p);
};

/** Whether this request asked for its position (the web app's queries do). */
export const wantsPosition = (headers: { get(name: string): string | undefined } | undefined): boolean =>
  headers?.get('x-live-position') === '1';

/** Apollo plugin: a query asked with `x-live-position: 1` answers `extensions.livePosition`. */
export const livePositionPlugin: ApolloServerPlugin<AppContext> = {
  async requestDidStart(rc) {
    if (!wantsPosition(rc.request.http?.headers)) return;
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (operation?.operation === 'query')
          answered.set(contextValue, BigInt(await snapshotPosition(contextValue.em)));
      },
      async willSendResponse({ response, contextValue }) {
        const p = answered.get(contextValue);
        if (p === undefined || response.body.kind !== 'single') return;
        const r = response.body.singleResult;
        r.extensions = { ...r.extensions, livePosition: String(p) };
      },
    };
  },
};
