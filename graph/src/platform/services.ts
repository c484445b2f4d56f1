import type { Config } from '../config/config.js';
import { AuthService } from '../modules/auth/auth.service.js';
import { GoogleVerifier } from '../modules/auth/google-verifier.js';
import { LoginThrottler } from '../modules/auth/login-throttle.js';
import { SessionService } from '../modules/auth/session.service.js';
import { DepartmentService } from '../modules/departments/department.service.js';
import { EmployeeService } from '../modules/employees/employee.service.js';
import { EmployeeAdminService } from '../modules/employees/employee.admin.js';
import { ScheduleService } from '../modules/schedules/schedule.service.js';
import { ScheduleGridCache } from '../modules/schedules/schedule.grid-cache.js';
import { createDeviceServices } from '../modules/devices/device.services.js';
import { createBlogServices } from '../modules/blog/blog.module.js';
import { GoogleCalendarGateway } from '../modules/google/google-calendar.client.js';
import { GoogleConnectionService } from '../modules/google/google-connection.service.js';
import { IcsService } from '../modules/google/ics.service.js';
import type { LivePubSub } from './live/pubsub.js';

/** The singletons every request shares. Resolvers and routes reach them through the context. */
export function createServices(config: Config, secret: Buffer, pubsub: LivePubSub) {
  const employees = new EmployeeService();
  const sessions = new SessionService(config, secret);
  return {
    config,
    pubsub,
    employees,
    employeeAdmin: new EmployeeAdminService(employees, sessions),
    departments: new DepartmentService(),
    schedules: new ScheduleService(),
    scheduleGridCache: new ScheduleGridCache<Buffer>(config.GRID_CACHE_MB * 1024 * 1024),
    devices: createDeviceServices(),
    blog: createBlogServices(config),
    sessions,
    google: new GoogleConnectionService(new GoogleCalendarGateway({ config }), secret),
    ics: new IcsService(config),
    auth: new AuthService(sessions, new LoginThrottler(config), new GoogleVerifier(config), employees),
  };
}

export type Services = ReturnType<typeof createServices>;
