import { defineArea } from '../../platform/area.js';
import { Department, Location } from './department.entity.js';
import { DepartmentResolver } from './department.resolver.js';
import { departmentRoutes } from './department.routes.js';
import { DepartmentService } from './department.service.js';

/** Departments and locations. */
export const departmentsArea = defineArea({
  name: 'departments',
  entities: [Department, Location],
  resolvers: [DepartmentResolver],
  routes: departmentRoutes,
  services: () => ({ departments: new DepartmentService() }),
});
