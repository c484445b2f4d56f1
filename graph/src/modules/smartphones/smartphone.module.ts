import { defineArea } from '../../platform/area.js';
import { Smartphone } from './smartphone.entity.js';
import { SmartphoneResolver } from './smartphone.resolver.js';
import { smartphoneRoutes } from './smartphone.routes.js';

/** The smartphone register (its services are the devices area's `services.devices`). */
export const smartphonesArea = defineArea({
  name: 'smartphones',
  entities: [Smartphone],
  resolvers: [SmartphoneResolver],
  routes: smartphoneRoutes,
});
