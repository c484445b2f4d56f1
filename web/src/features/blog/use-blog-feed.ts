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

/** Cards a page holds (the server's default), and the most one re-read may ask for (the server's limit). */
const PAGE = 20;
const MAX_REREAD = 200;

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
    async (after: string | null, append: boolean, keep = false, limit = PAGE) => {
      const forKey = current.current;
      setState((s) => ({ ...s, loading: true, error: false, ...(append || keep ? {} : { items: [], next: null }) }));
      try {
        const variables = { filter: JSON.parse(forKey) as BlogFeedFilter, after, withPinned: after === null, limit };
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
    (change: BlogChange) =>
      setState((s) => ({
        ...s,
        items: applyToFeed(s.items, change, { more: s.next !== null }),
        pinned: s.pinned && applyToPinned(s.pinned, change),
      })),
    [],
  );
  const reload = useCallback(() => void fetchPage(null, false), [fetchPage]);
  // A change may have come between the first read and the subscription's registration: read again
  // from the top the loaded cards and a page more (new posts push them down; at most the server's
  // 200), keeping them on screen meanwhile, so a viewer who had read on keeps their place
  // (app/live-position.ts).
  const loaded = useRef(0);
  loaded.current = state.items.length;
  useEffect(
    () => whenStale('BlogFeed', () => void fetchPage(null, false, true, Math.min(MAX_REREAD, loaded.current + PAGE))),
    [fetchPage],
  );
  // The viewer's own like, save or visit: the card takes the post as it now is; in 保存したブログ an
  // unsaved post leaves.
  const replace = useCallback((post: BlogCardPost) => {
    const savedOnly = (JSON.parse(current.current) as BlogFeedFilter).scope === 'SAVED';
    setState((s) => ({
      ...s,
      items:
        savedOnly && !post.saved
          ? s.items.filter((p) => p.id !== post.id)
          : s.items.map((p) => (p.id === post.id ? post : p)),
      pinned: s.pinned && s.pinned.map((p) => (p.id === post.id ? post : p)),
    }));
  }, []);

  return { ...state, loadMore: () => state.next && void fetchPage(state.next, true), apply, reload, replace };
}
