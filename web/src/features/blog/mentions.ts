import { useMemo } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { MentionSearch } from '../../components/mentions/use-mention-picker';

export const BlogMentionCandidatesQuery = graphql(`
  query BlogMentionCandidates($query: String, $categoryId: Int, $postId: Int) {
    blogMentionCandidates(query: $query, categoryId: $categoryId, postId: $postId) {
      id
      name
      departmentName
    }
  }
`);

/**
 * Whom @ lists where the blog is written: in a post's body the members of its category (none until
 * one is chosen), in a comment the readers of the post. The server's rule (blog-mention.service.ts).
 */
export function useBlogMentions(where: { categoryId?: number | null; postId?: number | null }): MentionSearch {
  const client = useApolloClient();
  const { categoryId = null, postId = null } = where;
  return useMemo(
    () => async (query: string) => {
      if (categoryId === null && postId === null) return [];
      const { data } = await client.query({
        query: BlogMentionCandidatesQuery,
        variables: { query, categoryId, postId },
        fetchPolicy: 'network-only',
      });
      return data?.blogMentionCandidates ?? [];
    },
    [client, categoryId, postId],
  );
}
