import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import {
  COMPUTER_STATUSES,
  DEVICE_STATUS_LABEL,
  OFFICE_STATUS_LABEL,
  OFFICE_USAGE_LIMIT,
  OfficeAccountStatus,
  SMARTPHONE_STATUSES,
  labelled,
} from './device.enums.js';
import { DeviceHistoryService } from './device.history.js';
import { DeviceSecretService } from './device.secrets.js';
import type { DeviceOptions } from './device.types.js';

/** What the IT-asset register's kinds share: the held-device history, the secrets and the form options. */
export function createDeviceServices() {
  return {
    history: new DeviceHistoryService(),
    secrets: new DeviceSecretService(),
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
