import { useMemo, useRef } from 'react';
import { useSubscription } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { BlogFeedFilter } from '../../gql/graphql';
import type { BlogChange } from './live-feed';

export const BlogChangedSubscription = graphql(`
  subscription BlogChanged($feed: BlogFeedFilter) {
    blogChanged(feed: $feed) {
      kind
      postId
      inFeed
      categoryId
      category {
        id
        name
        color
      }
      post {
        ...BlogCardFields
        tags {
          id
        }
      }
    }
  }
`);

/**
 * Calls `onChange` for every blog change the server sends this viewer (only posts they may see, as
 * they may see them: blogChanged decides per viewer at delivery). One subscription per feed screen;
 * the feed, 速報 and an open dialog all follow it (live-feed.ts). `feed` is the feed's filter: the
 * server says of each post change whether it is on that feed (`inFeed`, by blogFeed's own rule);
 * a new filter subscribes again.
 */
export function useBlogLive(onChange: (change: BlogChange) => void, feed: BlogFeedFilter) {
  const ref = useRef(onChange);
  ref.current = onChange;
  const key = JSON.stringify(feed);
  const variables = useMemo(() => ({ feed: JSON.parse(key) as BlogFeedFilter }), [key]);
  useSubscription(BlogChangedSubscription, {
    variables,
    onData: ({ data }) => {
      const change = data.data?.blogChanged;
      if (change) ref.current(change);
    },
  });
}
