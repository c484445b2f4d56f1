import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput } from '../../platform/errors.js';
import { pgArray } from '../../platform/sql.js';
import { ScheduleService } from '../schedules/schedule.service.js';
import { addDays } from './google-mapping.js';
import { renderIcs } from './ics.render.js';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A read-only ICS feed per employee behind a secret URL (only its SHA-256 is stored; regenerating
 * replaces it, revoking removes it). It carries the employee's own entries and the entries they
 * accepted as a guest, never anyone else's private entry. The URL is a bearer secret that may leak,
 * so the owner's private entries are busy time only (予定あり) unless the owner opts in to their
 * details (show_private_details; kept when the URL is regenerated, forgotten when it is revoked).
 */
export class IcsService {
  private readonly schedules = new ScheduleService();

  constructor(private readonly config: Config) {}

  private feedUrl(token: string): string {
    const origin = this.config.PUBLIC_ORIGIN
      ? new URL(this.config.PUBLIC_ORIGIN).origin
      : `http://localhost:${this.config.PORT}`;
    return `${origin}/api/ics/${token}.ics`;
  }

  async enabled(ctx: AppContext): Promise<boolean> {
    const user = requireUser(ctx);
    const rows = await ctx.em.execute(`select 1 from ics_feed where employee_id = ?`, [user.id]);
    return rows.length > 0;
  }

  async settings(ctx: AppContext): Promise<{ enabled: boolean; showPrivateDetails: boolean }> {
    const user = requireUser(ctx);
    const rows: { show_private_details: boolean }[] = await ctx.em.execute(
      `select show_private_details from ics_feed where employee_id = ?`,
      [user.id],
    );
    return { enabled: rows.length > 0, showPrivateDetails: rows[0]?.show_private_details ?? false };
  }

  async setShowPrivateDetails(
    ctx: AppContext,
    show: boolean,
  ): Promise<{ enabled: boolean; showPrivateDetails: boolean }> {
    const user = requireUser(ctx);
    if (typeof show !== 'boolean')
      throw badInput('表示するかどうかを指定してください。', [{ field: 'show', message: 'true か false' }]);
    const rows = await ctx.em.execute(
      `update ics_feed set show_private_details = ? where employee_id = ? returning employee_id`,
      [show, user.id],
    );
    if (rows.length === 0) throw badInput('ICSフィードが無効です。先に購読URLを発行してください。');
    return { enabled: true, showPrivateDetails: show };
  }

  async regenerate(ctx: AppContext): Promise<{ url: string }> {
    const user = requireUser(ctx);
    const token = randomBytes(24).toString('base64url');
    await ctx.em.execute(
      `insert into ics_feed (employee_id, token_hash) values (?, ?)
       on conflict (employee_id) do update set token_hash = excluded.token_hash, created_at = now()`,
      [user.id, hash(token)],
    );
    return { url: this.feedUrl(token) };
  }

  async revoke(ctx: AppContext): Promise<boolean> {
    const user = requireUser(ctx);
    await ctx.em.execute(`delete from ics_feed where employee_id = ?`, [user.id]);
    return true;
  }

  /** The calendar text for a token, or null when the token is unknown (revoked, regenerated). */
  async feed(em: EntityManager, token: string): Promise<string | null> {
    const rows: { employee_id: number; name: string; show_private_details: boolean }[] = await em.execute(
      `select f.employee_id, e.name, f.show_private_details from ics_feed f join employee e on e.id = f.employee_id where f.token_hash = ? and e.status = 'ACTIVE'`,
      [hash(token)],
    );
    const owner = rows[0];
    if (!owner) return null;
    const today = new Date().toISOString().slice(0, 10);
    const entries = await this.schedules.snapshots(
      em,
      `s.end_date >= ?::date and s.start_date <= ?::date and (s.owner_id = ? or (not s.is_private and exists (
         select 1 from schedule_guest g where g.schedule_id = s.id and g.employee_id = ? and g.response = 'ACCEPTED')))`,
      [addDays(today, -90), addDays(today, 400), owner.employee_id, owner.employee_id],
      'order by s.start_date, s.start_time nulls first, s.id limit 5000',
    );
    const ids = [...new Set(entries.flatMap((e) => [e.ownerId, ...e.guests.map((g) => g.id)]))];
    const people: { id: number; email: string | null }[] = ids.length
      ? await em.execute(`select id, email from employee where id = any(?::int[])`, [pgArray(ids)])
      : [];
    const emails = new Map(people.filter((p) => p.email).map((p) => [p.id, p.email!]));
    return renderIcs(`${owner.name}の予定`, entries, { showPrivateDetails: owner.show_private_details, emails });
  }
}
