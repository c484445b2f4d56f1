import { defineArea } from '../../platform/area.js';
import { EmployeeAdminService } from './employee.admin.js';
import { Employee } from './employee.entity.js';
import { EmployeeResolver } from './employee.resolver.js';
import { employeeRoutes } from './employee.routes.js';
import { EmployeeService } from './employee.service.js';

/** The staff directory and its administration. */
export const employeesArea = defineArea({
  name: 'employees',
  entities: [Employee],
  resolvers: [EmployeeResolver],
  routes: employeeRoutes,
  services: ({ sessions }) => {
    const employees = new EmployeeService();
    return { employees, employeeAdmin: new EmployeeAdminService(employees, sessions) };
  },
});
