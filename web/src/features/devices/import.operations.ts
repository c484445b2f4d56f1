import { graphql } from '../../gql';

/** The Excel import of computers: its job, live progress, and applying it. */
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
