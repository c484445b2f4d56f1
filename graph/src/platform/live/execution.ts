import {
  createSourceEventStream,
  execute,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLFormattedError,
} from 'graphql';
import type WebSocket from 'ws';
import type { AppContext } from '../context.js';
import { isHubIterator, isSharedView } from './hub.js';
import { publishedPosition } from './position.js';

type Result = ExecutionResult | Promise<ExecutionResult>;
interface Rendered {
  result: Result;
  /** The result as JSON, once per shared view, document and variables (set when the result is ready). */
  json?: string;
  /** A result with errors: its errors are formatted for each subscriber (masking, logging), not shared as JSON. */
  failed?: ExecutionResult;
  /** Direct sinks waiting for this result (type-graphql's middleware makes resolvers async). */
  waiters?: Set<Sink>;
}
/** The transport's error formatter (masking, logging), applied to a result's errors before they are sent. */
export type FormatErrors = (errors: readonly GraphQLError[]) => GraphQLFormattedError[];

interface Sink {
  socket: WebSocket;
  format: FormatErrors;
  prefix: string;
  /** Frames in delivery order; the head is sent as soon as its result is ready. */
  fifo: Rendered[];
  /** The client asked for the registration's position as the first frame (position.ts). */
  position: boolean;
}

/** Marks the result ready: its shared JSON, or (with errors) the result itself for per-subscriber formatting. */
function settle(entry: Rendered, result: ExecutionResult): void {
  if (result.errors?.length) entry.failed = result;
  entry.json = result.errors?.length ? '' : JSON.stringify(result);
}

/** Per shared view: per document: per operation name + variables, the one execution result. */
const rendered = new WeakMap<object, WeakMap<DocumentNode, Map<string, Rendered>>>();

/** A result as plain JSON-ready objects (graphql-js builds null-prototype objects, which JSON.stringify serialises on its slow path). */
const plain = (r: ExecutionResult): ExecutionResult =>
  r.errors ? r : (JSON.parse(JSON.stringify(r)) as ExecutionResult);

/** What, besides the document, decides a subscription's result: its operation name and variables. */
const resultKey = (args: ExecutionArgs) =>
  `${args.operationName ?? ''}\u0000${args.variableValues ? JSON.stringify(args.variableValues) : ''}`;

/** `key` = resultKey(args), computed once per subscription (not once per subscriber and event). */
function renderShared(view: object, args: ExecutionArgs, key: string): Rendered {
  let byDoc = rendered.get(view);
  if (!byDoc) rendered.set(view, (byDoc = new WeakMap()));
  let byKey = byDoc.get(args.document);
  if (!byKey) byDoc.set(args.document, (byKey = new Map()));
  let r = byKey.get(key);
  if (!r) {
    const out = execute({ ...args, rootValue: view });
    if (out instanceof Promise) {
      const entry: Rendered = {
        result: out.then((res) => {
          const result = plain(res);
          settle(entry, result);
          const waiters = entry.waiters;
          entry.waiters = undefined;
          if (waiters) for (const sink of waiters) flush(sink);
          return result;
        }),
      };
      r = entry;
    } else {
      const result = plain(out);
      r = { result };
      settle(r, result);
    }
    byKey.set(key, r);
  }
  return r;
}

/** Where a WebSocket subscription's frames go: its socket and the client's subscription id. */
const sinks = new WeakMap<object, Sink>();

/** Above this much unsent data a subscriber is too slow to keep: its connection is closed. */
const MAX_BUFFERED = 8 * 1024 * 1024;

/** Sends the sink's ready frames in order; waits on the first one not rendered yet. */
function flush(sink: Sink) {
  const { socket, fifo } = sink;
  while (fifo.length) {
    const head = fifo[0];
    if (head.json === undefined) {
      (head.waiters ??= new Set()).add(sink);
      return;
    }
    fifo.shift();
    if (socket.readyState !== socket.OPEN) continue; // closing: graphql-ws completes the subscription
    const json = head.failed ? JSON.stringify({ ...head.failed, errors: sink.format(head.failed.errors!) }) : head.json;
    if (socket.bufferedAmount > MAX_BUFFERED) {
      fifo.length = 0;
      socket.close(1013, 'Too slow');
      return;
    }
    socket.send(sink.prefix + json + '}');
  }
}

/**
 * Lets subscriptions executed with `contextValue` write their shared-view frames straight to the
 * socket (see subscribeShared). Called by the graphql-ws onSubscribe hook with the subscription id.
 */
export function directFrames(
  contextValue: object,
  socket: WebSocket,
  id: string,
  format: FormatErrors,
  position = false,
): void {
  // Exactly graphql-ws's `next` message: {"id":…,"type":"next","payload":…}.
  sinks.set(contextValue, {
    socket,
    format,
    prefix: `{"id":${JSON.stringify(id)},"type":"next","payload":`,
    fifo: [],
    position,
  });
}

/**
 * graphql-ws `subscribe`: graphql-js's subscribe (source stream per subscriber, then the selection
 * set executed for each event), except for event values marked as shared views (hub.ts):
 *   - the selection set is executed and serialised once per view, document and variables, and the
 *     result reused by every subscriber who receives that same view (one per visibility class);
 *   - on a hub stream of a WebSocket subscriber (directFrames), the frame (the cached JSON
 *     behind the subscriber's own prefix) is written to the socket in the publish loop itself (or,
 *     when the class's result is still being executed, by the loop that finishes it), in order, not
 *     through graphql-ws's per-subscriber promise chain. Errors, completion and anything that is not
 *     a shared view still go through graphql-ws.
 * Documents are shared between subscribers by the onSubscribe document cache (server.ts).
 */
export async function subscribeShared(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in (stream as object))) return stream as ExecutionResult;
  const sink = args.contextValue ? sinks.get(args.contextValue as object) : undefined;
  const key = resultKey(args);
  if (sink && isHubIterator(stream)) {
    stream.direct = (value) => {
      if (!isSharedView(value)) return false;
      sink.fifo.push(renderShared(value, args, key));
      if (sink.fifo.length === 1) flush(sink);
      return true;
    };
  }
  const source = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  // A pubsub stream (not a hub's) listens from its first next(): asked now, so that it listens
  // before the registration's position is read.
  let primed = sink?.position && !isHubIterator(stream) ? source.next() : undefined;
  if (sink?.position) {
    // Registered: every event published from here on reaches this stream, so the highest position
    // published so far is where it starts (position.ts). Read after the registration, never before:
    // reading late can only make the client refetch once more.
    const result = {
      extensions: { livePosition: publishedPosition((args.contextValue as AppContext).services.pubsub) },
    };
    sink.fifo.push({ result, json: JSON.stringify(result) });
    if (sink.fifo.length === 1) flush(sink);
  }
  const map = (payload: unknown): Result =>
    isSharedView(payload) ? renderShared(payload, args, key).result : execute({ ...args, rootValue: payload });
  const it: AsyncIterableIterator<ExecutionResult> = {
    next: async () => {
      const r = await (primed ?? source.next());
      primed = undefined;
      return r.done ? { value: undefined, done: true } : { value: await map(r.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    throw: async (err?: unknown) => {
      if (source.throw) await source.throw(err);
      throw err;
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
