import type { Router } from 'express';
import { AREAS } from '../modules/index.js';

/** Every area's `/api` routes, in the order of `AREAS` (the OpenAPI test reads them here too). */
export function mountApiRoutes(r: Router): void {
  for (const area of AREAS) area.routes?.(r);
}
