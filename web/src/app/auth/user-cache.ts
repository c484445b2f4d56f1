import type { EmployeeRole } from '../../gql/graphql';

/**
 * The stored login object of the spec (employee_id, full_name, role), kept in localStorage with a
 * sessionStorage fallback. It is a display cache only, so the shell can paint the user's name at
 * once on reload; the HttpOnly session cookie, checked through `me`, decides who is signed in.
 */
export interface StoredLogin {
  employee_id: number;
  full_name: string;
  role: EmployeeRole;
}

const KEY = 'intranet.login';
const ROLES: readonly string[] = ['ADMIN', 'SYSTEM_ADMIN', 'DEVICE_ADMIN', 'GENERAL'];

function storages(): Storage[] {
  const out: Storage[] = [];
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      const s = window[name];
      if (s) out.push(s);
    } catch {
      /* blocked by the browser's privacy settings */
    }
  }
  return out;
}

function parse(raw: string | null): StoredLogin | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StoredLogin>;
    if (
      typeof v.employee_id === 'number' &&
      typeof v.full_name === 'string' &&
      typeof v.role === 'string' &&
      ROLES.includes(v.role)
    ) {
      return { employee_id: v.employee_id, full_name: v.full_name, role: v.role };
    }
  } catch {
    /* corrupt entry: ignore */
  }
  return null;
}

export function readStoredLogin(): StoredLogin | null {
  for (const s of storages()) {
    try {
      const v = parse(s.getItem(KEY));
      if (v) return v;
    } catch {
      /* try the next storage */
    }
  }
  return null;
}

export function writeStoredLogin(login: StoredLogin): void {
  const raw = JSON.stringify(login);
  for (const s of storages()) {
    try {
      s.setItem(KEY, raw);
      return;
    } catch {
      /* full or blocked: fall back to the next storage */
    }
  }
}

export function clearStoredLogin(): void {
  for (const s of storages()) {
    try {
      s.removeItem(KEY);
    } catch {
      /* nothing to clear */
    }
  }
}
