import { defineArea } from '../../platform/area.js';
import { SmartphoneAdminService } from './smartphone.admin.js';
import { Smartphone } from './smartphone.entity.js';
import { SmartphoneResolver } from './smartphone.resolver.js';
import { smartphoneRoutes } from './smartphone.routes.js';
import { SmartphoneService } from './smartphone.service.js';

/** The smartphone register. `read` lists, gets and exports (every device role); `write` creates and updates. */
export const smartphonesArea = defineArea({
  name: 'smartphones',
  entities: [Smartphone],
  resolvers: [SmartphoneResolver],
  routes: smartphoneRoutes,
  services: () => {
    const read = new SmartphoneService();
    return { smartphones: { read, write: new SmartphoneAdminService(read) } };
  },
});
