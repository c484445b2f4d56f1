import { defineArea } from '../../platform/area.js';
import { OffboardingResolver } from './offboarding.resolver.js';
import { offboardingRoutes } from './offboarding.routes.js';

/** Returning what a leaving employee holds (its service is `services.devices.offboarding`). */
export const offboardingArea = defineArea({
  name: 'offboarding',
  resolvers: [OffboardingResolver],
  routes: offboardingRoutes,
});
