import { graphql } from '../../../gql';

/** The settings list: every category for 管理者/システム管理者 (membership only decides the feed). */
export const BlogCategoriesListQuery = graphql(`
  query BlogCategoriesList {
    blogCategories {
      id
      name
      color
      permissions
      updatedAt
      employees {
        id
      }
      departments {
        id
      }
    }
  }
`);

export const BlogCategoryDetailFields = graphql(`
  fragment BlogCategoryDetailFields on BlogCategoryView {
    id
    name
    color
    permissions
    version
    createdAt
    updatedAt
    employees {
      id
      name
    }
    departments {
      id
      name
    }
  }
`);

export const BlogCategoryDetailQuery = graphql(`
  query BlogCategoryDetail($id: Int!) {
    blogCategory(id: $id) {
      ...BlogCategoryDetailFields
    }
  }
`);

export const CreateBlogCategoryMutation = graphql(`
  mutation CreateBlogCategory($input: BlogCategoryInput!) {
    createBlogCategory(input: $input) {
      ...BlogCategoryDetailFields
    }
  }
`);

export const UpdateBlogCategoryMutation = graphql(`
  mutation UpdateBlogCategory($id: Int!, $input: BlogCategoryInput!) {
    updateBlogCategory(id: $id, input: $input) {
      ...BlogCategoryDetailFields
    }
  }
`);
