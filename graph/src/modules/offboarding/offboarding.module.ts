import { defineArea, type AreaSetup } from '../../platform/area.js';
import type { ComputerAdminService } from '../computers/computer.admin.js';
import type { ComputerService } from '../computers/computer.service.js';
import type { OfficeAccountService } from '../office-accounts/office-account.service.js';
import type { SmartphoneAdminService } from '../smartphones/smartphone.admin.js';
import type { SmartphoneService } from '../smartphones/smartphone.service.js';
import { OffboardingResolver } from './offboarding.resolver.js';
import { offboardingRoutes } from './offboarding.routes.js';
import { OffboardingService } from './offboarding.service.js';

type Needs = AreaSetup & {
  computers: { read: ComputerService; write: ComputerAdminService };
  smartphones: { read: SmartphoneService; write: SmartphoneAdminService };
  officeAccounts: { read: OfficeAccountService };
};

/** Returning what a leaving employee holds. After the three registers, whose services it uses. */
export const offboardingArea = defineArea({
  name: 'offboarding',
  resolvers: [OffboardingResolver],
  routes: offboardingRoutes,
  services: ({ computers, smartphones, officeAccounts }: Needs) => ({
    offboarding: new OffboardingService(
      computers.read,
      smartphones.read,
      officeAccounts.read,
      computers.write,
      smartphones.write,
    ),
  }),
});
