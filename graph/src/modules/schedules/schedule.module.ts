import { defineArea } from '../../platform/area.js';
import { ScheduleGridCache } from './schedule.grid-cache.js';
import { ScheduleResolver } from './schedule.resolver.js';
import { scheduleRoutes } from './schedule.routes.js';
import { ScheduleService } from './schedule.service.js';

/** Schedules and the month grid (with its answer cache). */
export const schedulesArea = defineArea({
  name: 'schedules',
  resolvers: [ScheduleResolver],
  routes: scheduleRoutes,
  services: ({ config }) => ({
    schedules: new ScheduleService(),
    scheduleGridCache: new ScheduleGridCache<Buffer>(config.GRID_CACHE_MB * 1024 * 1024),
  }),
});
