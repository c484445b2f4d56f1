/**
 * Our side of the sync, which push and pull share: an entry's link to its Google event (etag, guest
 * list, when synced) and Google's version of an event applied to our entries (origin 'google').
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import {
  ScheduleService,
  type GEvent,
  type GoogleConnectionService,
  attendeeView,
  fieldsOf,
  fromGoogleEvent,
  sameFields,
  type PulledFields,
  type GoogleMetrics,
} from '@intranet/graph/areas';
import { record } from '@intranet/graph/events';

/** Our sync metadata of an entry (not part of the event snapshot). */
interface LinkRow {
  google_etag: string | null;
  google_synced_at: Date | null;
  /** Google's guest list at google_etag (see attendeeView); null when not known. */
  google_attendees: string[] | null;
  updated_at: Date;
}

/** What both directions of GoogleSyncEngine build on. */
export class SyncedEntries {
  protected readonly schedules = new ScheduleService();

  constructor(
    readonly connections: GoogleConnectionService,
    protected readonly log: Logger,
  ) {}

  get metrics(): GoogleMetrics {
    return this.connections.gateway.metrics;
  }

  get enabled(): boolean {
    return this.connections.enabled;
  }

  protected get pastDays(): number {
    return this.connections.gateway.config.GOOGLE_SYNC_PAST_DAYS;
  }

  protected async link(tx: EntityManager, id: number): Promise<LinkRow> {
    const [r] = await tx.execute(
      `select google_etag, google_synced_at, google_attendees, updated_at from schedule where id = ?`,
      [id],
    );
    return r as LinkRow;
  }

  /** Links the entry to Google's version `ev` (id, etag, its guest list) as synced now. */
  protected async storeLink(tx: EntityManager, id: number, ev: GEvent, selfEmail: string): Promise<void> {
    await tx.execute(
      `update schedule set google_event_id = ?, google_etag = ?, google_attendees = array(select json_array_elements_text(?::json)), google_synced_at = clock_timestamp() where id = ?`,
      [ev.id, ev.etag ?? null, JSON.stringify(attendeeView(ev.attendees, selfEmail)), id],
    );
  }

  protected async guestEmails(tx: EntityManager, s: ScheduleSnapshot): Promise<Map<number, string>> {
    if (!s.guests.length) return new Map();
    const rows: { id: number; email: string | null }[] = await tx.execute(
      `select id, email from employee where id = any(?::int[])`,
      [`{${s.guests.map((g) => g.id).join(',')}}`],
    );
    return new Map(rows.filter((r) => r.email).map((r) => [r.id, r.email!.toLowerCase()]));
  }

  /** The entry's event was deleted on Google: a deletion wins, the entry goes here too. */
  protected async deletedOnGoogle(tx: EntityManager, s: ScheduleSnapshot): Promise<'deleted-here'> {
    await tx.execute(`delete from schedule where id = ?`, [s.id]);
    record(tx, {
      type: 'schedule.deleted',
      aggregateId: s.id,
      actorId: null,
      payload: { schedule: s, origin: 'google' },
    });
    await tx.flush();
    return 'deleted-here';
  }

  /** Our columns of a pulled event (internal guests and the user's own address are not external guests). */
  protected pulledFields(
    s: ScheduleSnapshot | null,
    ev: GEvent,
    selfEmail: string,
    emails: Map<number, string>,
  ): PulledFields | null {
    const exclude = new Set<string>([
      selfEmail.toLowerCase(),
      ...(s ? s.guests.map((g) => emails.get(g.id)).filter((x): x is string => Boolean(x)) : []),
    ]);
    return fromGoogleEvent(ev, exclude);
  }

  /** Applies Google's version of an event to our entry (origin 'google'); equal content only stores the etag. */
  protected async applyGoogle(
    tx: EntityManager,
    s: ScheduleSnapshot,
    ev: GEvent,
    selfEmail: string,
  ): Promise<'same' | 'updated'> {
    const f = this.pulledFields(s, ev, selfEmail, await this.guestEmails(tx, s));
    if (!f || sameFields(fieldsOf(s), f)) {
      await this.storeLink(tx, s.id, ev, selfEmail);
      return 'same';
    }
    await tx.execute(
      `update schedule set title = ?, start_date = ?, end_date = ?, is_all_day = ?, start_time = ?, end_time = ?, meet_link = ?, description = ?,
              is_private = ?, external_guests = array(select json_array_elements_text(?::json)), google_event_id = ?, google_etag = ?,
              google_attendees = array(select json_array_elements_text(?::json)),
              updated_at = now(), version = version + 1, updated_by_id = null, google_synced_at = clock_timestamp()
        where id = ?`,
      [
        f.title,
        f.startDate,
        f.endDate,
        f.isAllDay,
        f.startTime,
        f.endTime,
        f.meetLink,
        f.description,
        f.isPrivate,
        JSON.stringify(f.externalGuests),
        ev.id,
        ev.etag ?? null,
        JSON.stringify(attendeeView(ev.attendees, selfEmail)),
        s.id,
      ],
    );
    const after = (await this.schedules.snapshot(tx, s.id))!;
    record(tx, {
      type: 'schedule.updated',
      aggregateId: s.id,
      actorId: null,
      payload: { schedule: after, previous: s, origin: 'google' },
    });
    await tx.flush();
    return 'updated';
  }

  protected async insertImported(tx: EntityManager, employeeId: number, ev: GEvent, selfEmail: string): Promise<void> {
    const f = this.pulledFields(null, ev, selfEmail, new Map());
    if (!f) return;
    const type = f.meetLink ? 'REMOTE' : f.externalGuests.length ? 'APPOINTMENT' : 'TASK';
    const rows: { id: number }[] = await tx.execute(
      `insert into schedule (owner_id, title, start_date, end_date, is_all_day, start_time, end_time, type, meet_link, description, sync_google,
                             is_private, external_guests, google_event_id, google_etag, google_attendees, google_synced_at, updated_by_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?, array(select json_array_elements_text(?::json)), ?, ?, array(select json_array_elements_text(?::json)), clock_timestamp(), null)
       on conflict do nothing returning id`,
      [
        employeeId,
        f.title,
        f.startDate,
        f.endDate,
        f.isAllDay,
        f.startTime,
        f.endTime,
        type,
        f.meetLink,
        f.description,
        f.isPrivate,
        JSON.stringify(f.externalGuests),
        ev.id,
        ev.etag ?? null,
        JSON.stringify(attendeeView(ev.attendees, selfEmail)),
      ],
    );
    if (!rows.length) return;
    const s = (await this.schedules.snapshot(tx, rows[0]!.id))!;
    record(tx, { type: 'schedule.created', aggregateId: s.id, actorId: null, payload: { schedule: s } });
    await tx.flush();
  }
}
