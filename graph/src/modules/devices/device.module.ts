import type { Router } from 'express';
import { Computer } from '../computers/computer.entity.js';
import { ComputerResolver } from '../computers/computer.resolver.js';
import { computerRoutes } from '../computers/computer.routes.js';
import { DeviceResolver } from './device.resolver.js';
import { ImportResolver } from '../import/import.resolver.js';
import { importRoutes } from '../import/import.routes.js';
import { OfficeAccount } from '../office-accounts/office-account.entity.js';
import { OfficeAccountResolver } from '../office-accounts/office-account.resolver.js';
import { officeAccountRoutes } from '../office-accounts/office-account.routes.js';
import { OffboardingResolver } from '../offboarding/offboarding.resolver.js';
import { offboardingRoutes } from '../offboarding/offboarding.routes.js';
import { Smartphone } from '../smartphones/smartphone.entity.js';
import { SmartphoneResolver } from '../smartphones/smartphone.resolver.js';
import { smartphoneRoutes } from '../smartphones/smartphone.routes.js';

/** What the platform registers for the IT-asset register. */
export const deviceEntities = [OfficeAccount, Computer, Smartphone];
export const deviceResolvers = [ComputerResolver, SmartphoneResolver, OfficeAccountResolver, DeviceResolver, OffboardingResolver, ImportResolver];

export function deviceRoutes(r: Router): void {
  importRoutes(r); // before /computers/{id}
  computerRoutes(r);
  smartphoneRoutes(r);
  officeAccountRoutes(r);
  offboardingRoutes(r);
}
