import { defineArea } from '../../platform/area.js';
import { ComputerAdminService } from './computer.admin.js';
import { Computer } from './computer.entity.js';
import { ComputerResolver } from './computer.resolver.js';
import { computerRoutes } from './computer.routes.js';
import { ComputerService } from './computer.service.js';

/** The computer register. `read` lists, gets and exports (every device role); `write` creates and updates. */
export const computersArea = defineArea({
  name: 'computers',
  entities: [Computer],
  resolvers: [ComputerResolver],
  routes: computerRoutes,
  services: () => {
    const read = new ComputerService();
    return { computers: { read, write: new ComputerAdminService(read) } };
  },
});
