import { graphql } from '../../../gql';

export const BlogCommentFields = graphql(`
  fragment BlogCommentFields on BlogComment {
    id
    parentId
    content
    createdAt
    canDelete
    author {
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

/** A post's comments, oldest first, each with its replies (one level, as the server threads them). */
export const BlogCommentsQuery = graphql(`
  query BlogComments($postId: Int!) {
    blogComments(postId: $postId) {
      ...BlogCommentFields
      replies {
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
