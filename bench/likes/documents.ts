/**
 * What the likes bench subscribes to and sends: the web app's BlogChanged document
 * (web/src/features/blog/live.ts with BlogCardFields of operations.ts inlined) as Apollo Client
 * sends it (__typename added), the post it likes and the like mutation.
 */
export const SUBSCRIPTION = `subscription BlogChanged {
  blogChanged {
    kind
    postId
    categoryId
    category {
      id
      name
      color
      __typename
    }
    post {
      ...BlogCardFields
      tags {
        id
        __typename
      }
      __typename
    }
    __typename
  }
}

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
  likeCount
  likedByMe
  likers {
    id
    name
    departmentName
    __typename
  }
  isNew
  saved
  author {
    id
    name
    __typename
  }
  category {
    id
    name
    color
    __typename
  }
  attachment {
    name
    type
    url
    thumbnailUrl
    __typename
  }
  __typename
}`;

export const CREATE_POST = `mutation CreateBlogPost($input: BlogPostInput!) { createBlogPost(input: $input) { id version state } }`;
export const LIKE = `mutation LikeBlogPost($id: Int!, $liked: Boolean!) { likeBlogPost(id: $id, liked: $liked) { id likeCount } }`;

export const postInput = (categoryId: number, today: string) => ({
  title: 'いいねの配信ベンチ',
  content: {
    blocks: [{ type: 'paragraph', data: { text: '全社ミーティングの議事録を共有します。質問はコメントでどうぞ。' } }],
  },
  categoryId,
  publishStart: today,
  allowLikes: true,
  allowComments: true,
});
