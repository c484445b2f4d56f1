import type { EntityManager } from '@mikro-orm/postgresql';
import type { CurrentUser } from '../modules/auth/session.service.js';
import type { Services } from './services.js';
import { createLoaders, type Loaders } from './dataloaders.js';
import type { RateLimitState } from './rate-limit.js';

export interface RequestMeta {
  ip: string;
  /** The request's id (X-Request-Id), or the WebSocket operation's: in every log line about it. */
  requestId?: string;
  userAgent?: string;
  /** The session token as sent (cookie or bearer), so logout can revoke it. */
  token?: string;
  deviceCookie?: string;
  /** The request came over HTTPS: cookies get Secure and the __Host- prefix. */
  secure?: boolean;
  /** Why the credentials were refused before the operation ran (too many wrong API keys): the operation answers it. */
  authError?: Error;
  /** The limit that counted this request, closest to refusing (rate-limit.ts): said in the answer's headers. */
  rateLimit?: RateLimitState;
}

/** What every resolver, route and subscription gets: a fresh ORM fork, the signed-in user, loaders. */
export interface AppContext {
  em: EntityManager;
  user: CurrentUser | null;
  services: Services;
  loaders: Loaders;
  meta: RequestMeta;
  /** Set by auth mutations so the HTTP layer can write or clear the session cookie. */
  cookies: {
    set?: { token: string; remember: boolean; expiresAt: Date; device: string };
    clear?: boolean;
    write?: (headers: string[]) => void;
  };
}

export function createContext(
  services: Services,
  em: EntityManager,
  user: CurrentUser | null,
  meta: RequestMeta,
): AppContext {
  const fork = em.fork();
  return { em: fork, user, services, loaders: createLoaders(fork), meta, cookies: {} };
}
