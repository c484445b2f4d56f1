import { graphql } from '../../../gql';

/** One post as the edit page reads it: the stored Editor.js document and every field of the form. */
export const BlogPostEditQuery = graphql(`
  query BlogPostEdit($id: Int!) {
    blogPost(id: $id) {
      id
      title
      content
      contentHtml
      author {
        id
        name
      }
      category {
        id
        name
        color
      }
      tags {
        id
        content
      }
      allowComments
      allowLikes
      publishStart
      publishEnd
      isPin
      pinStart
      pinEnd
      requireConfirmation
      state
      stateLabel
      attachment {
        name
        type
        size
        url
        thumbnailUrl
      }
      updatedAt
      version
      canEdit
      canDelete
    }
  }
`);

/** The category dialog: the categories the viewer sees, with whether they may post there and read there (isMember). */
export const BlogEditorCategoriesQuery = graphql(`
  query BlogEditorCategories {
    blogCategories {
      id
      name
      color
      canPost
      isMember
    }
  }
`);

export const BlogEditorTagsQuery = graphql(`
  query BlogEditorTags($query: String, $offset: Int, $limit: Int) {
    blogTags(query: $query, offset: $offset, limit: $limit) {
      id
      content
      canEdit
    }
    blogTagCount(query: $query)
  }
`);

export const CreateBlogTagMutation = graphql(`
  mutation CreateBlogTag($input: BlogTagInput!) {
    createBlogTag(input: $input) {
      id
      content
      canEdit
    }
  }
`);

export const DeleteBlogTagsMutation = graphql(`
  mutation DeleteBlogTags($ids: [Int!]!) {
    deleteBlogTags(ids: $ids)
  }
`);

export const DeleteBlogPostMutation = graphql(`
  mutation DeleteBlogPost($id: Int!) {
    deleteBlogPost(id: $id)
  }
`);

/** A page of a post's history (its author and 管理者・システム管理者), newest first. */
export const BlogPostRevisionsQuery = graphql(`
  query BlogPostRevisions($id: Int!, $offset: Int, $limit: Int) {
    blogPostRevisions(id: $id, offset: $offset, limit: $limit) {
      version
      savedAt
      savedBy {
        id
        name
      }
      restoredFrom
      changes
    }
  }
`);

/** One revision whole, to compare it with another. */
export const BlogPostRevisionQuery = graphql(`
  query BlogPostRevision($id: Int!, $version: Int!) {
    blogPostRevision(id: $id, version: $version) {
      version
      title
      content
      contentHtml
      categoryName
      tagNames
      allowComments
      allowLikes
      publishStart
      publishEnd
      isPin
      pinStart
      pinEnd
      isDraft
      requireConfirmation
      attachmentName
    }
  }
`);

export const RestoreBlogPostRevisionMutation = graphql(`
  mutation RestoreBlogPostRevision($id: Int!, $version: Int!, $expectedVersion: Int!) {
    restoreBlogPostRevision(id: $id, version: $version, expectedVersion: $expectedVersion) {
      id
      version
    }
  }
`);

/** The body as readers will see it (the server's check and rendering; nothing stored). */
export const BlogContentPreviewQuery = graphql(`
  query BlogContentPreview($content: JSONObject!) {
    blogContentPreview(content: $content)
  }
`);
