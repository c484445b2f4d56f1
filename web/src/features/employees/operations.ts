import { graphql } from '../../gql';

export const EmployeesListQuery = graphql(`
  query EmployeesList($filter: EmployeeFilter, $offset: Int!, $limit: Int!) {
    employees(filter: $filter, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        name
        email
        status
        statusLabel
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

export const EmployeeDetailFields = graphql(`
  fragment EmployeeDetailFields on EmployeeView {
    id
    name
    loginId
    email
    role
    status
    statusLabel
    version
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

export const EmployeeDetailQuery = graphql(`
  query EmployeeDetail($id: Int!) {
    employee(id: $id) {
      ...EmployeeDetailFields
    }
  }
`);

export const CreateEmployeeMutation = graphql(`
  mutation CreateEmployee($input: EmployeeInput!) {
    createEmployee(input: $input) {
      ...EmployeeDetailFields
    }
  }
`);

export const UpdateEmployeeMutation = graphql(`
  mutation UpdateEmployee($id: Int!, $input: EmployeeInput!) {
    updateEmployee(id: $id, input: $input) {
      ...EmployeeDetailFields
    }
  }
`);

export const EmployeeDevicesQuery = graphql(`
  query EmployeeDevices($employeeId: Int!) {
    employeeDevices(employeeId: $employeeId) {
      computers {
        id
        maker
        model
        status
        statusLabel
      }
      smartphones {
        id
        phoneNumber
        carrier
        status
        statusLabel
      }
      officeAccounts {
        id
        account
        status
        statusLabel
      }
    }
  }
`);

export const ReturnEmployeeDevicesMutation = graphql(`
  mutation ReturnEmployeeDevices($employeeId: Int!) {
    returnEmployeeDevices(employeeId: $employeeId) {
      computers {
        id
      }
      smartphones {
        id
      }
      officeAccounts {
        id
      }
    }
  }
`);
