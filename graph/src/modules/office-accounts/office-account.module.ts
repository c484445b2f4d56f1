import { defineArea } from '../../platform/area.js';
import { OfficeAccountAdminService } from './office-account.admin.js';
import { OfficeAccount } from './office-account.entity.js';
import { OfficeAccountResolver } from './office-account.resolver.js';
import { officeAccountRoutes } from './office-account.routes.js';
import { OfficeAccountService } from './office-account.service.js';

/** The Office account register. `read` lists, gets and exports (every device role); `write` creates and updates. */
export const officeAccountsArea = defineArea({
  name: 'office-accounts',
  entities: [OfficeAccount],
  resolvers: [OfficeAccountResolver],
  routes: officeAccountRoutes,
  services: () => {
    const read = new OfficeAccountService();
    return { officeAccounts: { read, write: new OfficeAccountAdminService(read) } };
  },
});
