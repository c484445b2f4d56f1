import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { api } from '../../test/http.js';
import type { BlogWorld } from './blog.test-support.js';

export interface LiveChange {
  kind: string;
  postId: number | null;
  post: {
    id: number;
    title: string;
    state: string;
    pinned: boolean;
    canEdit: boolean;
    canDelete: boolean;
    category: { name: string; color: string } | null;
  } | null;
  categoryId: number | null;
  category: { id: number; name: string; color: string } | null;
}

const SUB = `subscription { blogChanged { kind postId post { id title state pinned canEdit canDelete category { name color } } categoryId category { id name color } } }`;

/** One viewer's open blogChanged subscription and what it has received, in order. */
export interface Watch {
  changes: LiveChange[];
  /** Waits until a change matching `pred` has arrived (bounded: fails the test rather than hang). */
  until(pred: (c: LiveChange) => boolean, tries?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Subscriptions for the blog's test world. "Received nothing" is asserted without a timer: the
 * viewer saves a draft of their own (only they see it) and deletes it; once that DELETED has
 * arrived, everything sent before it has too (deliveries keep their order).
 */
export function liveWatch(w: BlogWorld) {
  /** A draft only `token` sees, created and deleted: its DELETED is the last thing the viewer receives. */
  async function marker(token: string): Promise<number> {
    const d = await w.post(token, { title: '目印', isDraft: true });
    await api(w.p.url, 'DELETE', `/blogs/${d.id}`, { token });
    return d.id;
  }

  /** `query`: another selection of blogChanged (its changes must carry kind and postId). */
  async function watch(token: string, query = SUB): Promise<Watch> {
    const client = createClient({
      url: w.p.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const changes: LiveChange[] = [];
    client.subscribe<{ blogChanged: LiveChange }>(
      { query },
      { next: (m) => changes.push(m.data!.blogChanged), error: () => undefined, complete: () => undefined },
    );
    const v: Watch = {
      changes,
      async until(pred, tries = 100) {
        for (let i = 0; i < tries && !changes.some(pred); i++) await new Promise((r) => setTimeout(r, 50));
        if (!changes.some(pred)) throw new Error(`not received; got ${JSON.stringify(changes)}`);
      },
      close: async () => void (await client.dispose()),
    };
    // Live once a marker comes back (the first may be sent before the subscription registers).
    for (let i = 0; i < 50; i++) {
      const id = await marker(token);
      const back = await v
        .until((c) => c.postId === id && c.kind === 'DELETED', 10)
        .then(
          () => true,
          () => false,
        );
      if (back) {
        changes.length = 0;
        return v;
      }
    }
    throw new Error('subscription never registered');
  }

  /** Waits until everything sent so far to `v` has arrived (the marker's own changes are dropped). */
  async function drained(v: Watch, token: string) {
    const id = await marker(token);
    await v.until((c) => c.postId === id && c.kind === 'DELETED');
    v.changes.splice(v.changes.findIndex((c) => c.postId === id));
  }

  return { watch, drained };
}
