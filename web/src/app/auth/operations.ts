import { graphql } from '../../gql';

// The browser never asks for `token`: the session lives in an HttpOnly cookie set by the server.

export const CurrentUserFieldsFragment = graphql(`
  fragment CurrentUserFields on EmployeeView {
    id
    name
    role
    mustChangePassword
  }
`);

export const MeQuery = graphql(`
  query Me {
    me {
      ...CurrentUserFields
    }
  }
`);

export const AuthSettingsQuery = graphql(`
  query AuthSettings {
    authSettings {
      googleClientId
    }
  }
`);

export const LoginMutation = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      expiresAt
      employee {
        ...CurrentUserFields
      }
    }
  }
`);

export const LoginWithGoogleMutation = graphql(`
  mutation LoginWithGoogle($credential: String!, $rememberMe: Boolean!) {
    loginWithGoogle(credential: $credential, rememberMe: $rememberMe) {
      expiresAt
      employee {
        ...CurrentUserFields
      }
    }
  }
`);

export const ChangeOwnPasswordMutation = graphql(`
  mutation ChangeOwnPassword($input: ChangePasswordInput!) {
    changeOwnPassword(input: $input) {
      expiresAt
      employee {
        ...CurrentUserFields
      }
    }
  }
`);

export const LogoutMutation = graphql(`
  mutation Logout {
    logout
  }
`);

export const EmployeeChangedSubscription = graphql(`
  subscription EmployeeChanged {
    employeeChanged {
      employeeId
      type
    }
  }
`);
