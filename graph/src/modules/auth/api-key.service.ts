import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { checkId, parseInput, v } from '../../platform/validation.js';
import { EmployeeRole, EmployeeStatus, MASTER_DATA_ROLES } from '../employees/employee.enums.js';
import type { CurrentUser } from './session.service.js';

/** Every key starts so: a token that does not is a session, one that does is never a session. */
export const API_KEY_PREFIX = 'ipk_';
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface ApiKeyView {
  id: number;
  name: string;
  /** The secret's first characters, to tell keys apart in a list (never enough to use one). */
  prefix: string;
  role: EmployeeRole;
  readOnly: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  createdBy: { id: number; name: string };
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: { id: number; name: string } | null;
}

interface KeyRow {
  id: number;
  name: string;
  prefix: string;
  role: EmployeeRole;
  read_only: boolean;
  expires_at: Date | null;
  created_at: Date;
  employee_id: number;
  employee_name: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_by_id: number | null;
  revoked_by_name: string | null;
}

const SELECT = `select k.id, k.name, k.prefix, k.role, k.read_only, k.expires_at, k.created_at, k.employee_id, e.name as employee_name,
       k.last_used_at, k.revoked_at, k.revoked_by_id, r.name as revoked_by_name
  from api_key k join employee e on e.id = k.employee_id left join employee r on r.id = k.revoked_by_id`;

const toView = (r: KeyRow): ApiKeyView => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  role: r.role,
  readOnly: r.read_only,
  expiresAt: r.expires_at ? new Date(r.expires_at) : null,
  createdAt: new Date(r.created_at),
  createdBy: { id: r.employee_id, name: r.employee_name },
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
  revokedBy: r.revoked_by_id ? { id: r.revoked_by_id, name: r.revoked_by_name ?? '' } : null,
});

const createSchema = z.object({
  name: v.text('キーの名前', 100),
  role: z.enum(EmployeeRole, { error: 'キーの権限を選択してください。' }),
  readOnly: z.boolean({ error: '読み取り専用かどうかを指定してください。' }),
  expiresAt: z
    .date({ error: '有効期限は日時で指定してください。' })
    .refine((d) => d.getTime() > Date.now(), '有効期限は今より後にしてください。')
    .nullish(),
});

/**
 * API keys for other internal tools, made and revoked by 管理者 and システム管理者. A key acts for
 * the administrator who made it, with the role chosen for it (their own or a narrower one), read-only
 * or not, until it expires, is revoked, or that administrator is no longer active. Only the secret's
 * SHA-256 is stored; the secret is shown once, when the key is made.
 */
export class ApiKeyService {
  async list(ctx: AppContext): Promise<ApiKeyView[]> {
    requireUser(ctx, MASTER_DATA_ROLES);
    const rows: KeyRow[] = await ctx.em.execute(
      `${SELECT} order by k.revoked_at nulls first, k.created_at desc, k.id desc`,
    );
    return rows.map(toView);
  }

  async create(
    ctx: AppContext,
    input: { name?: unknown; role?: unknown; readOnly?: unknown; expiresAt?: unknown },
  ): Promise<{ apiKey: ApiKeyView; secret: string }> {
    const user = requireUser(ctx, MASTER_DATA_ROLES);
    const data = parseInput(createSchema, input);
    const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [{ id }]: { id: number }[] = await ctx.em.execute(
      `insert into api_key (name, prefix, secret_hash, role, read_only, employee_id, expires_at) values (?, ?, ?, ?, ?, ?, ?) returning id`,
      [
        data.name,
        secret.slice(0, API_KEY_PREFIX.length + 6),
        hash(secret),
        data.role,
        data.readOnly,
        user.id,
        data.expiresAt ?? null,
      ],
    );
    return { apiKey: await this.get(ctx.em, id), secret };
  }

  /** Revokes a key at once, on every instance (each request looks the key up). */
  async revoke(ctx: AppContext, id: number): Promise<ApiKeyView> {
    const user = requireUser(ctx, MASTER_DATA_ROLES);
    checkId(id, 'APIキー');
    const done: unknown[] = await ctx.em.execute(
      `update api_key set revoked_at = now(), revoked_by_id = ? where id = ? and revoked_at is null returning id`,
      [user.id, id],
    );
    if (!done.length) await this.get(ctx.em, id); // NOT_FOUND for an unknown id; a revoked key answers as it is
    return this.get(ctx.em, id);
  }

  private async get(em: EntityManager, id: number): Promise<ApiKeyView> {
    const [row]: KeyRow[] = await em.execute(`${SELECT} where k.id = ?`, [id]);
    if (!row) throw notFound('APIキー');
    return toView(row);
  }
}

/**
 * The principal of an API key sent as a bearer token: its maker's identity with the key's role, or
 * null for an unknown, expired or revoked key, or one whose maker is no longer active. Its last use
 * is recorded at most once a minute.
 */
export async function resolveApiKey(em: EntityManager, secret: string): Promise<CurrentUser | null> {
  const [row]: {
    id: number;
    role: EmployeeRole;
    read_only: boolean;
    employee_id: number;
    name: string;
    department_id: number | null;
    last_used_at: Date | null;
  }[] = await em.execute(
    `select k.id, k.role, k.read_only, k.employee_id, e.name, e.department_id, k.last_used_at
         from api_key k join employee e on e.id = k.employee_id
        where k.secret_hash = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()) and e.status = ?`,
    [hash(secret), EmployeeStatus.ACTIVE],
  );
  if (!row) return null;
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000)
    await em.execute(`update api_key set last_used_at = now() where id = ?`, [row.id]);
  return {
    id: row.employee_id,
    name: row.name,
    role: row.role,
    departmentId: row.department_id,
    sessionId: `api-key:${row.id}`,
    mustChangePassword: false,
    readOnly: row.read_only,
  };
}
