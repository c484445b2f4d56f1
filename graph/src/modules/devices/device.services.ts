import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { ComputerAdminService } from '../computers/computer.admin.js';
import { ComputerService } from '../computers/computer.service.js';
import { COMPUTER_STATUSES, DEVICE_STATUS_LABEL, OFFICE_STATUS_LABEL, OfficeAccountStatus, SMARTPHONE_STATUSES, labelled } from './device.enums.js';
import { DeviceHistoryService } from './device.history.js';
import { DeviceSecretService } from './device.secrets.js';
import { ImportService } from '../import/import.service.js';
import type { DeviceOptions } from './device.types.js';
import { OfficeAccountAdminService } from '../office-accounts/office-account.admin.js';
import { OFFICE_USAGE_LIMIT, OfficeAccountService } from '../office-accounts/office-account.service.js';
import { OffboardingService } from '../offboarding/offboarding.service.js';
import { SmartphoneAdminService } from '../smartphones/smartphone.admin.js';
import { SmartphoneService } from '../smartphones/smartphone.service.js';

/** The IT-asset register's services (every one of them for 管理者, デバイス管理者, システム管理者 only). */
export function createDeviceServices() {
  const computers = new ComputerService();
  const smartphones = new SmartphoneService();
  const officeAccounts = new OfficeAccountService();
  const computerAdmin = new ComputerAdminService(computers);
  const smartphoneAdmin = new SmartphoneAdminService(smartphones);
  return {
    computers,
    computerAdmin,
    smartphones,
    smartphoneAdmin,
    officeAccounts,
    officeAccountAdmin: new OfficeAccountAdminService(officeAccounts),
    history: new DeviceHistoryService(),
    secrets: new DeviceSecretService(),
    imports: new ImportService(),
    offboarding: new OffboardingService(computers, smartphones, officeAccounts, computerAdmin, smartphoneAdmin),
    /** Status options of the forms and filters, with their Japanese labels. */
    options(ctx: AppContext): DeviceOptions {
      requireUser(ctx, DEVICE_ROLES);
      return {
        computerStatuses: labelled(DEVICE_STATUS_LABEL, COMPUTER_STATUSES),
        smartphoneStatuses: labelled(DEVICE_STATUS_LABEL, SMARTPHONE_STATUSES),
        officeAccountStatuses: labelled(OFFICE_STATUS_LABEL, Object.values(OfficeAccountStatus)),
        officeUsageLimit: OFFICE_USAGE_LIMIT,
      };
    },
  };
}

export type DeviceServices = ReturnType<typeof createDeviceServices>;
