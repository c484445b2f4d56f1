import 'reflect-metadata'; // the areas' resolvers and types carry type-graphql decorators, whoever imports them first
import { authArea } from './auth/auth.module.js';
import { blogArea } from './blog/blog.module.js';
import { computersArea } from './computers/computer.module.js';
import { departmentsArea } from './departments/department.module.js';
import { devicesArea } from './devices/device.module.js';
import { employeesArea } from './employees/employee.module.js';
import { googleArea } from './google/google.module.js';
import { importArea } from './import/import.module.js';
import { offboardingArea } from './offboarding/offboarding.module.js';
import { notificationsArea } from './notifications/notification.module.js';
import { officeAccountsArea } from './office-accounts/office-account.module.js';
import { profilesArea } from './profiles/profile.module.js';
import { schedulesArea } from './schedules/schedule.module.js';
import { smartphonesArea } from './smartphones/smartphone.module.js';

/**
 * Every area the platform registers (entities, resolvers, `/api` routes, services): adding an area is
 * one line here. The order matters twice: routes mount in it (a literal path before the
 * `/:id` pattern that would match it), and an area's services may use those of the areas above it.
 */
export const AREAS = [
  employeesArea,
  authArea, // uses services.employees
  departmentsArea,
  googleArea, // before schedules: /schedules/google must not match /schedules/:id
  schedulesArea,
  devicesArea,
  importArea, // before computers: /computers/import… must not match /computers/:id
  computersArea,
  smartphonesArea,
  officeAccountsArea,
  offboardingArea,
  blogArea,
  notificationsArea, // uses services.blog (the visibility rule)
  profilesArea,
] as const; // a tuple: each area's own services type reaches `Services`
