import { graphql } from '../../gql';

export const BlogCardFields = graphql(`
  fragment BlogCardFields on BlogPostView {
    id
    title
    contentHtml
    publishStart
    updatedAt
    state
    stateLabel
    pinned
    allowLikes
    allowComments
    commentCount
    likeCount
    likedByMe
    likers {
      id
      name
      departmentName
    }
    isNew
    saved
    requireConfirmation
    confirmedCount
    confirmedByMe
    confirmationOpen
    author {
      id
      name
    }
    category {
      id
      name
      color
    }
    attachment {
      name
      type
      url
      thumbnailUrl
    }
  }
`);

/** A page of the feed (20 cards unless `limit`); the first (`withPinned`) brings 速報 in the same request. */
export const BlogFeedQuery = graphql(`
  query BlogFeed($filter: BlogFeedFilter, $after: String, $withPinned: Boolean!, $limit: Int) {
    blogFeed(filter: $filter, after: $after, limit: $limit) {
      items {
        ...BlogCardFields
      }
      nextCursor
      pinned @include(if: $withPinned) {
        ...BlogCardFields
      }
    }
  }
`);

export const BlogPostQuery = graphql(`
  query BlogPostDetail($id: Int!) {
    blogPost(id: $id) {
      ...BlogCardFields
    }
  }
`);

/** The feed's select choices: the categories the viewer is a member of (an admin lists every one), departments (tags are searched: TagFilter). */
export const BlogFilterOptionsQuery = graphql(`
  query BlogFilterOptions {
    blogCategories {
      id
      name
      isMember
    }
    departmentNames {
      refId: id
      name
    }
  }
`);

export const LikeBlogPostMutation = graphql(`
  mutation LikeBlogPost($id: Int!, $liked: Boolean!) {
    likeBlogPost(id: $id, liked: $liked) {
      ...BlogCardFields
    }
  }
`);

export const SaveBlogPostMutation = graphql(`
  mutation SaveBlogPost($id: Int!, $saved: Boolean!) {
    saveBlogPost(id: $id, saved: $saved) {
      ...BlogCardFields
    }
  }
`);

export const MarkBlogPostSeenMutation = graphql(`
  mutation MarkBlogPostSeen($id: Int!) {
    markBlogPostSeen(id: $id) {
      ...BlogCardFields
    }
  }
`);

/** Tags holding what was typed, for the feed's tag filter (a page: the company's tags are not bounded). */
export const BlogTagSuggestionsQuery = graphql(`
  query BlogTagSuggestions($query: String, $limit: Int) {
    blogTags(query: $query, limit: $limit) {
      id
      content
    }
  }
`);

/** The tag a filter names by id (from the address), for its content. */
export const BlogTagQuery = graphql(`
  query BlogTag($id: Int!) {
    blogTag(id: $id) {
      id
      content
    }
  }
`);
