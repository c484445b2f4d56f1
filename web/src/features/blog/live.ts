import { useRef } from 'react';
import { useSubscription } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { BlogChange } from './live-feed';

export const BlogChangedSubscription = graphql(`
  subscription BlogChanged {
    blogChanged {
      kind
      postId
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
 * the feed, 速報 and an open dialog all follow it (live-feed.ts).
 */
export function useBlogLive(onChange: (change: BlogChange) => void) {
  const ref = useRef(onChange);
  ref.current = onChange;
  useSubscription(BlogChangedSubscription, {
    onData: ({ data }) => {
      const change = data.data?.blogChanged;
      if (change) ref.current(change);
    },
  });
}
