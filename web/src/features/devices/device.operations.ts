import { graphql } from '../../gql';

/** What every device kind's screens share: the holder fragment, secrets shown on request, the change history, live changes. */
const _holder = graphql(`
  fragment HolderFields on DeviceHolder {
    id
    name
    retired
    statusLabel
  }
`);
void _holder;

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
