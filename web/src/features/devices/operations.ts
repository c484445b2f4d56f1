import { graphql } from '../../gql';

const _holder = graphql(`
  fragment HolderFields on DeviceHolder {
    id
    name
    retired
    statusLabel
  }
`);
void _holder;

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

/** A PIN code or password, shown only through this call: the server records who saw which field. */
export const RevealDeviceSecretMutation = graphql(`
  mutation RevealDeviceSecret($kind: DeviceKind!, $id: Int!, $secret: DeviceSecret!) {
    revealDeviceSecret(kind: $kind, id: $id, secret: $secret)
  }
`);

export const DeviceHistoryQuery = graphql(`
  query DeviceHistory($id: Int!, $kind: DeviceKind!) {
    deviceHistory(id: $id, kind: $kind) {
      deviceId
      kind
      assignments {
        from
        to
        user {
          ...HolderFields
        }
        assignedBy {
          id
          name
        }
        endedBy {
          id
          name
        }
      }
      changes {
        id
        changed
        changedAt
        reason
        changedBy {
          id
          name
        }
        fromUser {
          id
          name
        }
        toUser {
          id
          name
        }
        fromStatus
        toStatus
        fromLocation {
          refId: id
          name
        }
        toLocation {
          refId: id
          name
        }
      }
    }
  }
`);

export const DeviceChangedSubscription = graphql(`
  subscription DeviceChanged($kinds: [AssetKind!]) {
    deviceChanged(kinds: $kinds) {
      id
      kind
      type
    }
  }
`);

const _importJob = graphql(`
  fragment ImportJobFields on ImportJob {
    id
    mode
    status
    fileName
    totalRows
    processedRows
    created
    updated
    unchanged
    rejected
    error
    errorReportUrl
    finishedAt
  }
`);
void _importJob;

export const ImportJobQuery = graphql(`
  query ImportJob($id: ID!) {
    importJob(id: $id) {
      ...ImportJobFields
      errors(limit: 100) {
        row
        column
        reason
      }
      preview {
        row
        action
        assetNumber
        computerId
        maker
        model
        currentUserName
        changed
        cleared
      }
    }
  }
`);

export const ImportJobChangedSubscription = graphql(`
  subscription ImportJobChanged($id: ID!) {
    importJobChanged(id: $id) {
      ...ImportJobFields
    }
  }
`);

export const ApplyImportMutation = graphql(`
  mutation ApplyImport($previewJobId: ID!) {
    applyImport(previewJobId: $previewJobId) {
      ...ImportJobFields
    }
  }
`);
