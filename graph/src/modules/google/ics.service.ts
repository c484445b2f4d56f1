import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { ScheduleService } from '../schedules/schedule.service.js';
import type { ScheduleSnapshot } from '../../../../schema/events/schedule.events.js';
import { addDays } from './google-mapping.js';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** RFC 5545 text escaping. */
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Folds a content line at 75 octets (UTF-8 aware: never splits a character). */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

const compactDate = (d: string) => d.replace(/-/g, '');
const compactTime = (t: string) => t.replace(/:/g, '').slice(0, 6);
const utcStamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

/**
 * A read-only ICS feed per employee behind a secret URL (only its SHA-256 is stored; regenerating
 * replaces it, revoking removes it). It carries the employee's own entries (private ones included:
 * it is their feed) and the entries they accepted as a guest, never anyone else's private entry.
 */
export class IcsService {
  private readonly schedules = new ScheduleService();

  constructor(private readonly config: Config) {}

  private feedUrl(token: string): string {
    const origin = this.config.PUBLIC_ORIGIN ? new URL(this.config.PUBLIC_ORIGIN).origin : `http://localhost:${this.config.PORT}`;
    return `${origin}/api/ics/${token}.ics`;
  }

  async enabled(ctx: AppContext): Promise<boolean> {
    const user = requireUser(ctx);
    const rows = await ctx.em.execute(`select 1 from ics_feed where employee_id = ?`, [user.id]);
    return rows.length > 0;
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
    const rows: { employee_id: number; name: string }[] = await em.execute(
      `select f.employee_id, e.name from ics_feed f join employee e on e.id = f.employee_id where f.token_hash = ? and e.status = 'ACTIVE'`,
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
    return renderIcs(`${owner.name}の予定`, entries);
  }
}

export function renderIcs(name: string, entries: ScheduleSnapshot[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//intranet//schedule//JA',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${esc(name)}`,
    'X-WR-TIMEZONE:Asia/Tokyo',
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Tokyo',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:+0900',
    'TZOFFSETTO:+0900',
    'TZNAME:JST',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
  for (const s of entries) {
    lines.push('BEGIN:VEVENT', `UID:schedule-${s.id}@intranet`, `DTSTAMP:${utcStamp(s.updatedAt)}`, `LAST-MODIFIED:${utcStamp(s.updatedAt)}`, `SEQUENCE:${s.version}`);
    if (s.isAllDay) {
      lines.push(`DTSTART;VALUE=DATE:${compactDate(s.startDate)}`, `DTEND;VALUE=DATE:${compactDate(addDays(s.endDate, 1))}`);
    } else {
      lines.push(`DTSTART;TZID=Asia/Tokyo:${compactDate(s.startDate)}T${compactTime(s.startTime!)}`, `DTEND;TZID=Asia/Tokyo:${compactDate(s.endDate)}T${compactTime(s.endTime!)}`);
    }
    lines.push(`SUMMARY:${esc(s.title)}`);
    if (s.description) lines.push(`DESCRIPTION:${esc(s.description)}`);
    if (s.meetLink) lines.push(`URL:${s.meetLink.replace(/[\r\n]/g, '')}`);
    lines.push(`ORGANIZER;CN=${esc(s.ownerName)}:urn:intranet:employee:${s.ownerId}`);
    lines.push(`CLASS:${s.isPrivate ? 'PRIVATE' : 'PUBLIC'}`, 'TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
