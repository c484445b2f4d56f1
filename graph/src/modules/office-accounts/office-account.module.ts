import { defineArea } from '../../platform/area.js';
import { OfficeAccount } from './office-account.entity.js';
import { OfficeAccountResolver } from './office-account.resolver.js';
import { officeAccountRoutes } from './office-account.routes.js';

/** The Office account register (its services are the devices area's `services.devices`). */
export const officeAccountsArea = defineArea({
  name: 'office-accounts',
  entities: [OfficeAccount],
  resolvers: [OfficeAccountResolver],
  routes: officeAccountRoutes,
});
