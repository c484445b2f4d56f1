import { defineArea } from '../../platform/area.js';
import { DeviceResolver } from './device.resolver.js';
import { createDeviceServices } from './device.services.js';

/** What the IT-asset register's areas share: the held-device history and options, and all their services. */
export const devicesArea = defineArea({
  name: 'devices',
  resolvers: [DeviceResolver],
  services: () => ({ devices: createDeviceServices() }),
});
