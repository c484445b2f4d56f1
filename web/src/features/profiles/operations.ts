import { graphql } from '../../gql';

/** What a card of the list shows of a profile. */
export const ProfileCardFields = graphql(`
  fragment ProfileCardFields on Profile {
    id
    employeeId
    name
    title
    departmentName
    email
    address
    phone
    status
    aboutMeHtml
    skills
    languages
    likeCount
    likedByMe
    commentCount
    avatar {
      url
      thumbnailUrl
    }
  }
`);

export const ProfileImageFields = graphql(`
  fragment ProfileImageFields on ProfileImage {
    url
    thumbnailUrl
    width
    height
  }
`);

/** Everything the profile page shows and edits. */
export const ProfileFields = graphql(`
  fragment ProfileFields on Profile {
    ...ProfileCardFields
    departmentId
    locationName
    addressVisibility
    phoneVisibility
    workExperience
    education
    aboutMe
    hobbies
    talents
    hobbyImages {
      ...ProfileImageFields
    }
    talentImages {
      ...ProfileImageFields
    }
    headerImages {
      ...ProfileImageFields
    }
    canEdit
    version
    updatedAt
  }
`);

export const ProfilesQuery = graphql(`
  query Profiles($title: String, $name: String, $departmentId: Int, $q: String, $offset: Int!, $limit: Int!) {
    profiles(title: $title, name: $name, departmentId: $departmentId, q: $q, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        ...ProfileCardFields
      }
    }
  }
`);

export const ProfileQuery = graphql(`
  query Profile($id: Int!) {
    profile(id: $id) {
      ...ProfileFields
    }
  }
`);

/** One's own profile (null until made): the menu's 自分のプロフィール. */
export const MyProfileQuery = graphql(`
  query MyProfile {
    employeeProfile {
      ...ProfileFields
    }
  }
`);

export const ProfileLikersQuery = graphql(`
  query ProfileLikers($id: Int!) {
    profileLikers(id: $id) {
      id
      name
      departmentName
      locationName
      status
      email
    }
  }
`);

export const LikeProfileMutation = graphql(`
  mutation LikeProfile($id: Int!, $liked: Boolean!) {
    likeProfile(id: $id, liked: $liked) {
      id
      likeCount
      likedByMe
    }
  }
`);

export const CreateProfileMutation = graphql(`
  mutation CreateProfile($input: ProfileInput!) {
    createProfile(input: $input) {
      ...ProfileFields
    }
  }
`);

export const UpdateProfileMutation = graphql(`
  mutation UpdateProfile($id: Int!, $input: ProfileInput!) {
    updateProfile(id: $id, input: $input) {
      ...ProfileFields
    }
  }
`);

export const ProfileCommentFields = graphql(`
  fragment ProfileCommentFields on ProfileComment {
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
  }
`);

export const ProfileCommentsQuery = graphql(`
  query ProfileComments($profileId: Int!, $after: String, $limit: Int) {
    profileComments(profileId: $profileId, after: $after, limit: $limit) {
      totalCount
      nextCursor
      items {
        ...ProfileCommentFields
        replyCount
        replies {
          ...ProfileCommentFields
        }
      }
    }
  }
`);

export const ProfileCommentRepliesQuery = graphql(`
  query ProfileCommentReplies($commentId: Int!, $after: String, $limit: Int) {
    profileCommentReplies(commentId: $commentId, after: $after, limit: $limit) {
      nextCursor
      items {
        ...ProfileCommentFields
      }
    }
  }
`);

export const AddProfileCommentMutation = graphql(`
  mutation AddProfileComment($input: ProfileCommentInput!) {
    addProfileComment(input: $input) {
      id
    }
  }
`);

/** Its author changes a comment's text; the answer is the comment as saved (editedAt set). */
export const EditProfileCommentMutation = graphql(`
  mutation EditProfileComment($id: Int!, $content: String!) {
    editProfileComment(id: $id, content: $content) {
      ...ProfileCommentFields
    }
  }
`);

export const DeleteProfileCommentMutation = graphql(`
  mutation DeleteProfileComment($id: Int!) {
    deleteProfileComment(id: $id)
  }
`);

export const ProfileChangedSubscription = graphql(`
  subscription ProfileChanged($profileId: Int) {
    profileChanged(profileId: $profileId) {
      type
      profileId
      actorId
    }
  }
`);
