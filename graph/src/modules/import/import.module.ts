import { defineArea } from '../../platform/area.js';
import { ImportResolver } from './import.resolver.js';
import { importRoutes } from './import.routes.js';
import { ImportService } from './import.service.js';

/** The Excel import of computers (its worker is `workers/src/import/`). */
export const importArea = defineArea({
  name: 'import',
  resolvers: [ImportResolver],
  routes: importRoutes,
  services: () => ({ imports: new ImportService() }),
});
