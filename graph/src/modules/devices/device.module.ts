import type { Router } from 'express';
import { Computer } from './computer.entity.js';
import { ComputerResolver } from './computer.resolver.js';
import { computerRoutes } from './computer.routes.js';
import { DeviceResolver } from './device.resolver.js';
import { ImportResolver } from './import.resolver.js';
import { importRoutes } from './import.routes.js';
import { OfficeAccount } from './office-account.entity.js';
import { OfficeAccountResolver } from './office-account.resolver.js';
import { officeAccountRoutes } from './office-account.routes.js';
import { offboardingRoutes } from './offboarding.routes.js';
import { Smartphone } from './smartphone.entity.js';
import { SmartphoneResolver } from './smartphone.resolver.js';
import { smartphoneRoutes } from './smartphone.routes.js';

/** What the platform registers for the IT-asset register. */
export const deviceEntities = [OfficeAccount, Computer, Smartphone];
export const deviceResolvers = [ComputerResolver, SmartphoneResolver, OfficeAccountResolver, DeviceResolver, ImportResolver];

export function deviceRoutes(r: Router): void {
  importRoutes(r); // before /computers/{id}
  computerRoutes(r);
  smartphoneRoutes(r);
  officeAccountRoutes(r);
  offboardingRoutes(r);
}
