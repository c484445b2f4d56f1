import type { Router } from 'express';
import { authRoutes } from '../modules/auth/auth.routes.js';
import { employeeRoutes } from '../modules/employees/employee.routes.js';
import { departmentRoutes } from '../modules/departments/department.routes.js';
import { scheduleRoutes } from '../modules/schedules/schedule.routes.js';
import { googleRoutes } from '../modules/google/google.routes.js';
import { deviceRoutes } from '../modules/devices/device.module.js';
import { blogRoutes } from '../modules/blog/blog.module.js';

/** Every module's `/api` routes; modules add theirs here (the OpenAPI test reads this list too). */
export function mountApiRoutes(r: Router): void {
  authRoutes(r);
  employeeRoutes(r);
  departmentRoutes(r);
  googleRoutes(r); // before scheduleRoutes: /schedules/google must not match /schedules/:id
  scheduleRoutes(r);
  deviceRoutes(r);
  blogRoutes(r);
}
