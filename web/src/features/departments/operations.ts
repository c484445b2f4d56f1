import { graphql } from '../../gql';

export const DepartmentsListQuery = graphql(`
  query DepartmentsList($name: String, $offset: Int!, $limit: Int!) {
    departments(name: $name, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        name
        memberCount
        updatedAt
        manager {
          id
          name
        }
      }
    }
  }
`);

export const DepartmentDetailFields = graphql(`
  fragment DepartmentDetailFields on DepartmentView {
    id
    name
    version
    createdAt
    updatedAt
    manager {
      id
      name
      departmentName
      status
      statusLabel
    }
    members {
      id
      name
      departmentName
      status
      statusLabel
    }
  }
`);

export const DepartmentDetailQuery = graphql(`
  query DepartmentDetail($id: Int!) {
    department(id: $id) {
      ...DepartmentDetailFields
    }
  }
`);

export const CreateDepartmentMutation = graphql(`
  mutation CreateDepartment($input: DepartmentInput!) {
    createDepartment(input: $input) {
      ...DepartmentDetailFields
    }
  }
`);

export const UpdateDepartmentMutation = graphql(`
  mutation UpdateDepartment($id: Int!, $input: DepartmentInput!) {
    updateDepartment(id: $id, input: $input) {
      ...DepartmentDetailFields
    }
  }
`);
