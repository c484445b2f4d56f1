import { graphql } from '../../gql';

export const ApiKeyFieldsFragment = graphql(`
  fragment ApiKeyFields on ApiKey {
    id
    name
    prefix
    role
    readOnly
    expiresAt
    createdAt
    createdBy {
      id
      name
    }
    lastUsedAt
    revokedAt
    revokedBy {
      id
      name
    }
  }
`);

export const ApiKeysQuery = graphql(`
  query ApiKeys {
    apiKeys {
      ...ApiKeyFields
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: ApiKeyInput!) {
    createApiKey(input: $input) {
      secret
      apiKey {
        ...ApiKeyFields
      }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: Int!) {
    revokeApiKey(id: $id) {
      ...ApiKeyFields
    }
  }
`);
