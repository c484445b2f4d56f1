import type { Router } from 'express';
import type { AnyEntity, EntityClass } from '@mikro-orm/postgresql';
import type { Config } from '../config/config.js';
import type { FileStorage } from '../lib/files/index.js';
import type { SessionService } from '../modules/auth/session.service.js';
import type { LivePubSub } from './live/pubsub.js';
import type { WriteThrottle } from './write-throttle.js';

/** The platform's own singletons in every request context's `services`, beside the areas' ones. */
export interface PlatformServices {
  config: Config;
  pubsub: LivePubSub;
  /** Platform, not an area's: every request, REST call and socket resolves its user through it. */
  sessions: SessionService;
  /** Per-person write limits (comments, likes, posts, uploads), shared by every instance. */
  writes: WriteThrottle;
  /** Where uploaded files live (a local directory or an S3-compatible bucket); every area stores through it. */
  files: FileStorage;
}

/** What an area's services factory receives; the secret stays out of the request context. */
export type AreaSetup = PlatformServices & { secret: Buffer };

/**
 * One area of the product as the platform registers it; `graph/src/modules/index.ts` lists them all.
 * Each part is optional: an area states only what it has.
 */
export interface AreaModule<S extends object = object> {
  readonly name: string;
  /** MikroORM entities (the unit of work's record kinds). */
  readonly entities?: readonly EntityClass<AnyEntity>[];
  /** type-graphql resolver classes. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's resolvers are typed as Function
  readonly resolvers?: readonly Function[];
  /** Mounts the area's `/api` routes (areas mount in list order). */
  readonly routes?: (r: Router) => void;
  /**
   * The area's singletons, merged into the request context's `services`. `s` holds the platform's
   * and every earlier area's services (an area may declare the earlier ones it needs).
   */
  services?(s: AreaSetup): S;
}

/** Keeps an area's services type for the merged `Services`. */
export function defineArea<S extends object = object>(area: AreaModule<S>): AreaModule<S> {
  return area;
}
