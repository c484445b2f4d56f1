import { graphql } from '../../../gql';

export const BlogSearchQuery = graphql(`
  query BlogSearch($query: String!, $after: String) {
    blogSearch(query: $query, after: $after, first: 20) {
      items {
        matchedIn
        post {
          ...BlogCardFields
        }
        snippets {
          source
          text
          highlights {
            start
            length
          }
        }
      }
      nextCursor
    }
  }
`);
