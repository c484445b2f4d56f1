import { graphql } from '../../gql';

/** The smartphone screens' documents (list, detail, create, update); holders through HolderFields (device.operations.ts). */
export const SmartphonesListQuery = graphql(`
  query SmartphonesList($filter: SmartphoneFilter, $offset: Int!, $limit: Int!) {
    smartphones(filter: $filter, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        phoneNumber
        carrier
        os
        status
        statusLabel
        exchangeDate
        isBroken
        isDiscarded
        currentUserRetired
        currentUser {
          ...HolderFields
        }
        department {
          refId: id
          name
        }
        location {
          refId: id
          name
        }
      }
    }
  }
`);

export const SmartphoneDetailFields = graphql(`
  fragment SmartphoneDetailFields on SmartphoneView {
    id
    phoneNumber
    carrier
    os
    price
    status
    statusLabel
    exchangeDate
    secretsSet
    version
    updatedAt
    currentUser {
      ...HolderFields
    }
    previousUser {
      ...HolderFields
    }
    department {
      refId: id
      name
    }
    location {
      refId: id
      name
    }
  }
`);

export const SmartphoneDetailQuery = graphql(`
  query SmartphoneDetail($id: Int!) {
    smartphone(id: $id) {
      ...SmartphoneDetailFields
    }
  }
`);

export const CreateSmartphoneMutation = graphql(`
  mutation CreateSmartphone($input: SmartphoneInput!) {
    createSmartphone(input: $input) {
      ...SmartphoneDetailFields
    }
  }
`);

export const UpdateSmartphoneMutation = graphql(`
  mutation UpdateSmartphone($id: Int!, $input: SmartphoneInput!) {
    updateSmartphone(id: $id, input: $input) {
      ...SmartphoneDetailFields
    }
  }
`);
