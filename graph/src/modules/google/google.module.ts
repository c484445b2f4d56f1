import { defineArea } from '../../platform/area.js';
import { GoogleCalendarGateway } from './google-calendar.client.js';
import { GoogleConnectionService } from './google-connection.service.js';
import { GoogleCalendarResolver } from './google.resolver.js';
import { googleRoutes } from './google.routes.js';
import { IcsService } from './ics.service.js';

/** The Google Calendar connection and the ICS feeds. */
export const googleArea = defineArea({
  name: 'google',
  resolvers: [GoogleCalendarResolver],
  routes: googleRoutes,
  services: ({ config, secret }) => ({
    google: new GoogleConnectionService(new GoogleCalendarGateway({ config }), secret),
    ics: new IcsService(config),
  }),
});
