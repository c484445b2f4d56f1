import { graphql } from '../../../gql';

export const BlogCommentFields = graphql(`
  fragment BlogCommentFields on BlogComment {
    id
    parentId
    content
    createdAt
    editedAt
    canEdit
    canDelete
    author {
      id
      name
    }
    mentions {
      id
      name
    }
    attachment {
      name
      type
      size
      url
      thumbnailUrl
    }
  }
`);

/** A page of a post's comments, oldest first, each with its first replies (one level, as the server threads them). */
export const BlogCommentsQuery = graphql(`
  query BlogComments($postId: Int!, $after: String, $limit: Int) {
    blogComments(postId: $postId, after: $after, limit: $limit) {
      totalCount
      nextCursor
      items {
        ...BlogCommentFields
        replyCount
        replies {
          ...BlogCommentFields
        }
      }
    }
  }
`);

/** A page of a comment's replies, oldest first. */
export const BlogCommentRepliesQuery = graphql(`
  query BlogCommentReplies($commentId: Int!, $after: String, $limit: Int) {
    blogCommentReplies(commentId: $commentId, after: $after, limit: $limit) {
      nextCursor
      items {
        ...BlogCommentFields
      }
    }
  }
`);

export const DeleteBlogCommentMutation = graphql(`
  mutation DeleteBlogComment($id: Int!) {
    deleteBlogComment(id: $id)
  }
`);

/** Its author changes a comment's text; the answer is the comment as saved (editedAt set). */
export const EditBlogCommentMutation = graphql(`
  mutation EditBlogComment($id: Int!, $content: String!, $mentionIds: [Int!]) {
    editBlogComment(id: $id, content: $content, mentionIds: $mentionIds) {
      ...BlogCommentFields
    }
  }
`);
