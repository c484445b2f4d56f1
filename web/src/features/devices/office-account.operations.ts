import { graphql } from '../../gql';

/** The Microsoft Office account screens' documents (list, detail, create, update). */
export const OfficeAccountsListQuery = graphql(`
  query OfficeAccountsList($filter: OfficeAccountFilter, $offset: Int!, $limit: Int!) {
    officeAccounts(filter: $filter, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        account
        status
        statusLabel
        usageCount
        rowColor
        rowColorReason
        rowColorReasonCode
      }
    }
  }
`);

export const OfficeAccountDetailFields = graphql(`
  fragment OfficeAccountDetailFields on OfficeAccountView {
    id
    account
    status
    statusLabel
    usageCount
    rowColor
    rowColorReason
    rowColorReasonCode
    version
    updatedAt
  }
`);

export const OfficeAccountDetailQuery = graphql(`
  query OfficeAccountDetail($id: Int!) {
    officeAccount(id: $id) {
      ...OfficeAccountDetailFields
    }
  }
`);

export const CreateOfficeAccountMutation = graphql(`
  mutation CreateOfficeAccount($input: OfficeAccountInput!) {
    createOfficeAccount(input: $input) {
      ...OfficeAccountDetailFields
    }
  }
`);

export const UpdateOfficeAccountMutation = graphql(`
  mutation UpdateOfficeAccount($id: Int!, $input: OfficeAccountInput!) {
    updateOfficeAccount(id: $id, input: $input) {
      ...OfficeAccountDetailFields
    }
  }
`);
