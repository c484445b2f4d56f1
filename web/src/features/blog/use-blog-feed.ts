import { useCallback, useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { whenStale } from '../../app/live-position';
import type { BlogFeedFilter } from '../../gql/graphql';
import type { BlogCardPost } from './BlogCard';
import { applyToFeed, applyToPinned, type BlogChange } from './live-feed';
import { BlogFeedQuery } from './operations';

interface FeedState {
  items: readonly BlogCardPost[];
  /** 速報 as the last first page brought it (null until one has). */
  pinned: readonly BlogCardPost[] | null;
  next: string | null;
  loading: boolean;
  error: boolean;
}

/**
 * The feed for one filter, page by page on the server's cursor: a new filter starts over, もっと見る
 * appends the next page; each first page brings 速報 along in the same request. An answer for a
 * filter no longer shown is dropped. `apply` takes a live change into the loaded cards and 速報;
 * `reload` starts over (the viewer's categories changed).
 */
export function useBlogFeed(filter: BlogFeedFilter) {
  const client = useApolloClient();
  const key = JSON.stringify(filter);
  const current = useRef(key);
  const [state, setState] = useState<FeedState>({ items: [], pinned: null, next: null, loading: true, error: false });

  const fetchPage = useCallback(
    async (after: string | null, append: boolean, keep = false) => {
      const forKey = current.current;
      setState((s) => ({ ...s, loading: true, error: false, ...(append || keep ? {} : { items: [], next: null }) }));
      try {
        const variables = { filter: JSON.parse(forKey) as BlogFeedFilter, after, withPinned: after === null };
        const { data } = await client.query({ query: BlogFeedQuery, variables, fetchPolicy: 'no-cache' });
        if (current.current !== forKey || !data) return;
        const page = data.blogFeed;
        setState((s) => ({
          items: append ? [...s.items, ...page.items] : page.items,
          pinned: page.pinned ?? s.pinned,
          next: page.nextCursor ?? null,
          loading: false,
          error: false,
        }));
      } catch {
        if (current.current === forKey) setState((s) => ({ ...s, loading: false, error: true }));
      }
    },
    [client],
  );

  useEffect(() => {
    current.current = key;
    void fetchPage(null, false);
  }, [key, fetchPage]);

  const apply = useCallback(
    (change: BlogChange) => setState((s) => ({ ...s, items: applyToFeed(s.items, change, { more: s.next !== null }), pinned: s.pinned && applyToPinned(s.pinned, change) })),
    [],
  );
  const reload = useCallback(() => void fetchPage(null, false), [fetchPage]);
  // A change may have come between the first read and the subscription's registration: read the
  // first page again, keeping the cards on screen meanwhile (app/live-position.ts).
  useEffect(() => whenStale('BlogFeed', () => void fetchPage(null, false, true)), [fetchPage]);
  // The viewer's own like, save or visit: the card takes the post as it now is; in 保存したブログ an
  // unsaved post leaves.
  const replace = useCallback((post: BlogCardPost) => {
    const savedOnly = (JSON.parse(current.current) as BlogFeedFilter).scope === 'SAVED';
    setState((s) => ({
      ...s,
      items: savedOnly && !post.saved ? s.items.filter((p) => p.id !== post.id) : s.items.map((p) => (p.id === post.id ? post : p)),
      pinned: s.pinned && s.pinned.map((p) => (p.id === post.id ? post : p)),
    }));
  }, []);

  return { ...state, loadMore: () => state.next && void fetchPage(state.next, true), apply, reload, replace };
}
