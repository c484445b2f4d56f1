import { defineArea } from '../../platform/area.js';
import { DeviceResolver } from './device.resolver.js';
import { createDeviceServices } from './device.services.js';

/** What the IT-asset register's kinds share: the held-device history, secrets and options. */
export const devicesArea = defineArea({
  name: 'devices',
  resolvers: [DeviceResolver],
  services: () => ({ devices: createDeviceServices() }),
});
