import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { gql } from '../../test/http.js';
import type { BlogWorld } from '../blog/blog.test-support.js';

export const LIST = `query($after: String, $limit: Int) { notifications(after: $after, limit: $limit) { unreadCount nextCursor items { id kind postId postTitle commentId excerpt read createdAt actor { id name } actors { id name } actorCount } } }`;

export interface NotificationItem {
  id: number;
  kind: string;
  postId: number;
  postTitle: string;
  commentId: number | null;
  excerpt: string | null;
  read: boolean;
  createdAt: string;
  actor: { id: number; name: string } | null;
  actors: { id: number; name: string }[];
  actorCount: number;
}

/** GraphQL as `token`: the data, or a thrown error with the errors. */
export async function ask<T = Record<string, unknown>>(
  w: BlogWorld,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const r = await gql(w.p.url, query, variables, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data as T;
}

/** `token`'s bell: its unread count and items (first page of 200). */
export async function bell(w: BlogWorld, token: string): Promise<{ unreadCount: number; items: NotificationItem[] }> {
  return (
    await ask<{ notifications: { unreadCount: number; items: NotificationItem[] } }>(w, token, LIST, { limit: 200 })
  ).notifications;
}

export interface BellWatch {
  changes: { unreadCount: number; postId: number | null }[];
  /** Waits until a change matching `pred` has arrived (bounded: fails the test rather than hang). */
  until(pred: (c: { unreadCount: number; postId: number | null }) => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * One viewer's notificationsChanged over WebSocket, live once a change `arm` caused (it answers the
 * post it notified the viewer about) has come back.
 */
export async function watchBell(w: BlogWorld, token: string, arm: () => Promise<number>): Promise<BellWatch> {
  const client = createClient({
    url: w.p.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  const changes: BellWatch['changes'] = [];
  client.subscribe<{ notificationsChanged: BellWatch['changes'][number] }>(
    { query: `subscription { notificationsChanged { unreadCount postId } }` },
    { next: (m) => changes.push(m.data!.notificationsChanged), error: () => undefined, complete: () => undefined },
  );
  const until = async (pred: (c: BellWatch['changes'][number]) => boolean, tries = 100) => {
    for (let i = 0; i < tries && !changes.some(pred); i++) await new Promise((r) => setTimeout(r, 50));
    if (!changes.some(pred)) throw new Error(`not received; got ${JSON.stringify(changes)}`);
  };
  // The first change may be sent before the subscription registers: arm until one comes back.
  for (let i = 0; i < 50; i++) {
    const postId = await arm();
    const back = await until((c) => c.postId === postId, 10).then(
      () => true,
      () => false,
    );
    if (back) {
      changes.length = 0;
      return { changes, until: (pred) => until(pred), close: async () => void (await client.dispose()) };
    }
  }
  throw new Error('subscription never registered');
}
