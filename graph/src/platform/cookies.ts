import type { AppContext } from './context.js';

export const SESSION_COOKIE = 'intranet_sid';
export const SECURE_SESSION_COOKIE = '__Host-intranet_sid';
export const DEVICE_COOKIE = 'intranet_device';

function serialize(
  name: string,
  value: string,
  opts: { maxAgeSeconds?: number; secure: boolean; httpOnly?: boolean },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Lax'];
  if (opts.httpOnly !== false) parts.push('HttpOnly');
  if (opts.secure) parts.push('Secure');
  if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAgeSeconds))}`);
  return parts.join('; ');
}

/**
 * The Set-Cookie headers for what an auth operation decided. The session cookie is HttpOnly and
 * SameSite=Lax, Secure (with the __Host- prefix) when the request came over HTTPS. Without
 * "Remember Me" it is a browser-session cookie; with it, it lives as long as the session may.
 */
export function sessionCookieHeaders(cookies: AppContext['cookies'], secure: boolean): string[] {
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  if (cookies.set) {
    const { token, remember, expiresAt, device } = cookies.set;
    return [
      serialize(name, token, {
        secure,
        maxAgeSeconds: remember ? (expiresAt.getTime() - Date.now()) / 1000 : undefined,
      }),
      serialize(DEVICE_COOKIE, device, { secure, maxAgeSeconds: 365 * 86_400 }),
    ];
  }
  if (cookies.clear) return [serialize(name, '', { secure, maxAgeSeconds: 0 })];
  return [];
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      /* malformed cookie value: ignore it */
    }
  }
  return out;
}

/**
 * The session token of a request: `Authorization: Bearer …` for tools, else the cookie, which counts
 * only when `cookies` (the request comes from the platform's own pages: origins.ts).
 */
export function tokenFrom(
  headers: { authorization?: string; cookie?: string },
  opts: { cookies: boolean },
): { token?: string; viaCookie: boolean; device?: string } {
  const cookies = opts.cookies ? parseCookies(headers.cookie) : {};
  const auth = headers.authorization;
  if (auth?.startsWith('Bearer '))
    return { token: auth.slice(7).trim(), viaCookie: false, device: cookies[DEVICE_COOKIE] };
  const token = cookies[SECURE_SESSION_COOKIE] ?? cookies[SESSION_COOKIE];
  return { token, viaCookie: Boolean(token), device: cookies[DEVICE_COOKIE] };
}
