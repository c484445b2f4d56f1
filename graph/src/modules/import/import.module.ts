import { defineArea } from '../../platform/area.js';
import { ImportResolver } from './import.resolver.js';
import { importRoutes } from './import.routes.js';

/** The Excel import of computers (its worker is `workers/src/import/`; its service is `services.devices.imports`). */
export const importArea = defineArea({
  name: 'import',
  resolvers: [ImportResolver],
  routes: importRoutes,
});
