import type { Config } from '../config/config.js';
import { SessionService } from '../modules/auth/session.service.js';
import { AREAS } from '../modules/index.js';
import type { AreaModule, AreaSetup, PlatformServices } from './area.js';
import { fileStorageFor } from './file-storage.js';
import type { LivePubSub } from './live/pubsub.js';
import { WriteThrottle } from './write-throttle.js';

type AreaServices<A> = A extends AreaModule<infer S> ? S : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The platform's singletons and every area's, merged; resolvers and routes reach them through the context. */
export type Services = PlatformServices & Intersection<AreaServices<(typeof AREAS)[number]>>;

/** Builds the services of every area in `AREAS`, in its order (an area may use those above it). */
export function createServices(config: Config, secret: Buffer, pubsub: LivePubSub): Services {
  const platform: PlatformServices = {
    config,
    pubsub,
    sessions: new SessionService(config, secret),
    writes: new WriteThrottle(config),
    files: fileStorageFor(config),
  };
  const built: AreaSetup = { ...platform, secret };
  for (const area of AREAS) if (area.services) Object.assign(built, area.services(built));
  const { secret: _secret, ...services } = built; // the secret stays out of the request context
  return services as Services;
}
