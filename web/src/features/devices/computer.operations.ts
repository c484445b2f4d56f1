import { graphql } from '../../gql';

/** The computer screens' documents (list, detail, create, update); holders through HolderFields (device.operations.ts). */
export const ComputersListQuery = graphql(`
  query ComputersList($filter: ComputerFilter, $offset: Int!, $limit: Int!) {
    computers(filter: $filter, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        assetNumber
        maker
        deviceType
        model
        status
        statusLabel
        introductionDate
        warrantyUntil
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
        officeAccount {
          id
          account
        }
      }
    }
  }
`);

export const ComputerDetailFields = graphql(`
  fragment ComputerDetailFields on ComputerView {
    id
    assetNumber
    maker
    deviceType
    model
    status
    statusLabel
    reason
    purchaseDate
    introductionDate
    warrantyUntil
    secretsSet
    acAdapter
    powerCable
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
    officeAccount {
      id
      account
    }
  }
`);

export const ComputerDetailQuery = graphql(`
  query ComputerDetail($id: Int!) {
    computer(id: $id) {
      ...ComputerDetailFields
    }
  }
`);

export const CreateComputerMutation = graphql(`
  mutation CreateComputer($input: ComputerInput!) {
    createComputer(input: $input) {
      ...ComputerDetailFields
    }
  }
`);

export const UpdateComputerMutation = graphql(`
  mutation UpdateComputer($id: Int!, $input: ComputerInput!) {
    updateComputer(id: $id, input: $input) {
      ...ComputerDetailFields
    }
  }
`);
