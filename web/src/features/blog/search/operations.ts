import { graphql } from '../../../gql';

export const BlogSearchQuery = graphql(`
  query BlogSearch($query: String!, $after: String, $filter: BlogSearchFilter, $order: BlogSearchOrder) {
    blogSearch(query: $query, after: $after, first: 20, filter: $filter, order: $order) {
      items {
        matchedIn
        post {
          id
          title
          publishStart
          state
          stateLabel
          category {
            id
            name
            color
          }
          author {
            id
            name
          }
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
      totalCount
    }
  }
`);
