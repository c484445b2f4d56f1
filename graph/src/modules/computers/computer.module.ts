import { defineArea } from '../../platform/area.js';
import { Computer } from './computer.entity.js';
import { ComputerResolver } from './computer.resolver.js';
import { computerRoutes } from './computer.routes.js';

/** The computer register (its services are the devices area's `services.devices`). */
export const computersArea = defineArea({
  name: 'computers',
  entities: [Computer],
  resolvers: [ComputerResolver],
  routes: computerRoutes,
});
