import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import {
  GoogleApiError,
  type GEvent,
  type UserCalendar,
  INTRANET_ID,
  IS_PUSH_EVENT_ID_SQL,
  addDays,
  attendeeView,
  attendeesDiffer,
  generationOf,
  isPushEventId,
  mergeAttendees,
  monthRange,
  ourAttendees,
  pushEventId,
  toGoogleEvent,
  toJst,
} from '@intranet/graph/areas';
import { SyncedEntries } from './synced-entries.js';

const isStatus = (err: unknown, ...codes: number[]) => err instanceof GoogleApiError && codes.includes(err.status);

/** Serialises the pulls of one employee across processes (transaction-scoped advisory lock). */
const PULL_LOCK = 70_411;

/**
 * Two-way sync of one employee's entries with their primary Google calendar.
 *
 * Push (state-based, idempotent): the current row is written to Google — insert with a fixed id
 * (pushEventId), or patch with If-Match of the stored etag; a 412 re-fetches and applies the
 * conflict rule. Pull: incremental with the stored syncToken (full sync on first connect and
 * after 410), every page, cancelled events deleted here, recurring events as single instances.
 *
 * Conflict rule: when both sides changed, the side with the later modification time wins
 * (Google's `updated` against our row's `updated_at`; a tie keeps ours). A deletion on either side
 * always wins over an edit (a deleted entry is never brought back). Pulled changes are written
 * with origin 'google' and are never pushed back.
 */ export class GoogleSyncEngine extends SyncedEntries {
  // ---- push ---------------------------------------------------------------------------------

  /** Writes the current state of entry `id` to its owner's calendar (no-op when clean or not connected). */
  async pushEntry(
    tx: EntityManager,
    id: number,
  ): Promise<'gone' | 'not-connected' | 'clean' | 'inserted' | 'patched' | 'unlinked' | 'deleted-here' | 'google-won'> {
    const s = (await this.schedules.snapshots(tx, 's.id = ?', [id], 'for update of s'))[0];
    if (!s) return 'gone';
    const conn = await this.connections.calendarFor(tx, s.ownerId);
    if (!conn) return 'not-connected';
    const { cal } = conn;
    const meta = await this.link(tx, id);
    const gen = generationOf(s.googleEventId, meta.google_etag);
    const ours = s.googleEventId && isPushEventId(s.googleEventId, s.id) ? s.googleEventId : pushEventId(s.id, gen);
    if (!s.syncGoogle) {
      // Sync switched off on an entry we had written: remove it from Google and forget the link.
      // Its id cannot be used again (Google keeps the cancelled event), so the next push uses the next generation.
      if (!isPushEventId(s.googleEventId, s.id)) return 'clean';
      await this.deleteRemote(cal, s.googleEventId!);
      await tx.execute(
        `update schedule set google_event_id = null, google_etag = ?, google_attendees = null, google_synced_at = null where id = ?`,
        [`unlinked:${gen + 1}`, id],
      );
      this.metrics.pushes.inc({ action: 'unlink', outcome: 'ok' });
      return 'unlinked';
    }
    if (s.googleEventId && meta.google_synced_at && new Date(meta.google_synced_at) >= new Date(meta.updated_at))
      return 'clean';
    const self = conn.row.google_email;
    const emails = await this.guestEmails(tx, s);
    const body = toGoogleEvent(s, emails);
    let etag = meta.google_etag?.startsWith('unlinked:') ? null : meta.google_etag;
    let eventId = s.googleEventId;
    /** Google's current copy when we have fetched it (its attendees are what a patch must merge with). */
    let cur: GEvent | null = null;
    if (!eventId) {
      try {
        const ev = await cal.insert({ ...body, id: ours });
        await this.storeLink(tx, id, ev, self);
        this.metrics.pushes.inc({ action: 'insert', outcome: 'ok' });
        return 'inserted';
      } catch (err) {
        if (!isStatus(err, 409)) throw err;
        // An earlier attempt was written but its answer lost: adopt that event.
        cur = await cal.get(ours);
        if (cur.status === 'cancelled') return this.deletedOnGoogle(tx, s);
        eventId = ours;
        etag = cur.etag ?? null;
        await tx.execute(`update schedule set google_event_id = ? where id = ?`, [ours, id]);
      }
    }
    // Google's copy changed since we last synced (412, or seen when fetched): the later change wins.
    const conflict = async (latest: GEvent): Promise<'deleted-here' | 'google-won' | null> => {
      if (latest.status === 'cancelled') return this.deletedOnGoogle(tx, s);
      if (Date.parse(latest.updated ?? '') > new Date(meta.updated_at).getTime()) {
        this.metrics.conflicts.inc({ winner: 'google' });
        await this.applyGoogle(tx, s, latest, self);
        return 'google-won';
      }
      this.metrics.conflicts.inc({ winner: 'intranet' });
      etag = latest.etag ?? null;
      return null;
    };
    const fetch = () =>
      cal.get(eventId!).catch((e: unknown) => {
        if (isStatus(e, 404, 410)) return { status: 'cancelled' } as GEvent;
        throw e;
      });
    // Attendees are sent only when our guest list differs from Google's, and then merged with
    // Google's (a patch replaces the whole array: guests' answers would be reset otherwise).
    const { attendees: _all, ...fields } = body;
    const guests = ourAttendees(s, emails);
    for (let round = 0; round < 4; round++) {
      let patch: GEvent = fields;
      const known = cur ? attendeeView(cur.attendees, self) : meta.google_attendees;
      if (!known || attendeesDiffer(guests, known)) {
        if (!cur) {
          cur = await fetch();
          if (cur.status === 'cancelled' || (etag && cur.etag !== etag)) {
            const done = await conflict(cur);
            if (done) return done;
          }
          etag = cur.etag ?? etag;
        }
        if (attendeesDiffer(guests, attendeeView(cur.attendees, self)))
          patch = { ...fields, attendees: mergeAttendees(guests, cur.attendees, self) };
      }
      try {
        const ev = await cal.patch(eventId, patch, etag);
        await this.storeLink(tx, id, ev, self);
        this.metrics.pushes.inc({ action: 'patch', outcome: 'ok' });
        return 'patched';
      } catch (err) {
        if (isStatus(err, 404, 410)) return this.deletedOnGoogle(tx, s);
        if (!isStatus(err, 412)) throw err;
        cur = await fetch();
        const done = await conflict(cur);
        if (done) return done;
      }
    }
    throw new GoogleApiError(412, 'conditionNotMet', 'the event kept changing on Google', true);
  }

  private async deleteRemote(cal: UserCalendar, eventId: string): Promise<void> {
    try {
      await cal.delete(eventId);
      this.metrics.pushes.inc({ action: 'delete', outcome: 'ok' });
    } catch (err) {
      if (!isStatus(err, 404, 410)) throw err;
      this.metrics.pushes.inc({ action: 'delete', outcome: 'already' });
    }
  }
  /** An entry deleted here (payload of schedule.deleted with origin 'user'). */
  async pushDelete(
    tx: EntityManager,
    s: ScheduleSnapshot,
  ): Promise<'not-connected' | 'deleted' | 'tombstoned' | 'nothing'> {
    const conn = await this.connections.calendarFor(tx, s.ownerId);
    if (!conn) return 'not-connected';
    if (s.syncGoogle || isPushEventId(s.googleEventId, s.id)) {
      await this.deleteRemote(conn.cal, s.googleEventId ?? pushEventId(s.id));
      return 'deleted';
    }
    if (s.googleEventId) {
      // An imported Google event the user removed here: Google keeps it, it is never imported again.
      await tx.execute(
        `insert into google_tombstone (employee_id, google_event_id) values (?, ?) on conflict do nothing`,
        [s.ownerId, s.googleEventId],
      );
      return 'tombstoned';
    }
    return 'nothing';
  }

  /** Re-pushes entries whose last change is not on Google yet (after dead letters, reconnects). */
  async pushDirty(em: EntityManager, employeeId: number, limit = 200): Promise<number> {
    const rows: { id: number }[] = await em.execute(
      `select id from schedule
        where owner_id = ? and end_date >= ?::date
          and ((sync_google and (google_synced_at is null or google_synced_at < updated_at)) or (not sync_google and ${IS_PUSH_EVENT_ID_SQL}))
        order by updated_at limit ?`,
      [employeeId, addDays(toJst(Date.now()).date, -this.pastDays), limit],
    );
    for (const r of rows) await em.fork().transactional((tx) => this.pushEntry(tx, r.id));
    return rows.length;
  }

  // ---- pull ---------------------------------------------------------------------------------
  /**
   * Applies pulled events in one transaction. With `reconcile`, linked entries in that date range
   * that Google did not return (and that were last synced before the list began) are deleted:
   * after a full sync that catches deletions whose tombstones expired with the sync token.
   */
  private async apply(
    em: EntityManager,
    employeeId: number,
    selfEmail: string,
    items: GEvent[],
    reconcile: { from: string; to: string | null; before: Date } | null,
  ): Promise<{ created: number; updated: number; deleted: number }> {
    const stats = { created: 0, updated: 0, deleted: 0 };
    await em.fork().transactional(async (tx) => {
      await tx.execute(`select pg_advisory_xact_lock(?, ?)`, [PULL_LOCK, employeeId]);
      const tomb = new Set(
        (
          (await tx.execute(`select google_event_id from google_tombstone where employee_id = ?`, [employeeId])) as {
            google_event_id: string;
          }[]
        ).map((r) => r.google_event_id),
      );
      // The etag of every linked entry: an event listed with the etag we hold is unchanged (most of
      // a full sync) and needs no per-event lookup.
      const held = new Map(
        (
          (await tx.execute(
            `select google_event_id, google_etag from schedule where owner_id = ? and google_event_id is not null`,
            [employeeId],
          )) as {
            google_event_id: string;
            google_etag: string | null;
          }[]
        ).map((r) => [r.google_event_id, r.google_etag]),
      );
      const seen = new Set<string>();
      for (const ev of items) {
        if (!ev.id) continue;
        seen.add(ev.id);
        if (tomb.has(ev.id)) continue;
        if (ev.status !== 'cancelled' && ev.etag && held.get(ev.id) === ev.etag) continue;
        const intranetId = Number(ev.extendedProperties?.private?.[INTRANET_ID] ?? NaN);
        let s = (
          await this.schedules.snapshots(
            tx,
            's.owner_id = ? and s.google_event_id = ?',
            [employeeId, ev.id],
            'for update of s',
          )
        )[0];
        if (!s && ev.status !== 'cancelled' && Number.isInteger(intranetId) && isPushEventId(ev.id, intranetId)) {
          // Our insert whose answer was lost: adopt it — only under the id the entry's next push
          // would use. An older generation is an event we removed when sync was switched off (a
          // list taken before that removal must not link the entry to it again).
          const mine = (
            await this.schedules.snapshots(
              tx,
              's.owner_id = ? and s.id = ? and s.google_event_id is null and s.sync_google',
              [employeeId, intranetId],
              'for update of s',
            )
          )[0];
          if (mine && ev.id === pushEventId(mine.id, generationOf(null, (await this.link(tx, mine.id)).google_etag)))
            s = mine;
        }
        if (ev.status === 'cancelled') {
          if (s) {
            await this.deletedOnGoogle(tx, s);
            stats.deleted++;
          }
          continue;
        }
        if (!s) {
          // One of ours whose entry is gone here (its delete is on the way): never re-import it.
          if (ev.extendedProperties?.private?.[INTRANET_ID]) continue;
          await this.insertImported(tx, employeeId, ev, selfEmail);
          stats.created++;
          continue;
        }
        const meta = await this.link(tx, s.id);
        if (meta.google_etag && meta.google_etag === ev.etag && s.googleEventId === ev.id) continue;
        const dirty = !meta.google_synced_at || new Date(meta.google_synced_at) < new Date(meta.updated_at);
        const googleNewer = Date.parse(ev.updated ?? '') > new Date(meta.updated_at).getTime();
        if (!dirty || googleNewer) {
          if (dirty) this.metrics.conflicts.inc({ winner: 'google' });
          if ((await this.applyGoogle(tx, s, ev, selfEmail)) === 'updated') stats.updated++;
        } else {
          // Ours is newer and not on Google yet: the pending push wins (its If-Match fails, then it re-applies).
          this.metrics.conflicts.inc({ winner: 'intranet' });
        }
      }
      if (reconcile) {
        const rows: { id: number; google_event_id: string }[] = await tx.execute(
          `select id, google_event_id from schedule
            where owner_id = ? and google_event_id is not null and end_date >= ?::date and (?::date is null or start_date <= ?::date)
              and google_synced_at < ? and (not sync_google or ${IS_PUSH_EVENT_ID_SQL})`,
          [employeeId, reconcile.from, reconcile.to, reconcile.to, reconcile.before],
        );
        for (const r of rows) {
          if (seen.has(r.google_event_id)) continue;
          const s = (await this.schedules.snapshots(tx, 's.id = ?', [r.id], 'for update of s'))[0];
          if (s) {
            await this.deletedOnGoogle(tx, s);
            stats.deleted++;
          }
        }
      }
    });
    return stats;
  }

  /**
   * Pulls one employee: incremental with the stored sync token (full sync without one, or after
   * 410 Gone), then, when asked, the month shown on the schedule screen. Records success or the
   * error on the connection (shown to the user); rethrows so callers can count failures.
   */
  async pull(
    em: EntityManager,
    employeeId: number,
    opts: { month?: string | null } = {},
  ): Promise<{ full: boolean; created: number; updated: number; deleted: number } | null> {
    const c = await this.connections.calendarFor(em, employeeId);
    if (!c) return null;
    const { row, cal } = c;
    const [{ t: startedAt }] = (await em.execute(`select clock_timestamp() as t`)) as { t: Date }[];
    const total = { full: false, created: 0, updated: 0, deleted: 0 };
    const add = (s: { created: number; updated: number; deleted: number }) => {
      total.created += s.created;
      total.updated += s.updated;
      total.deleted += s.deleted;
    };
    try {
      let listed: { items: GEvent[]; nextSyncToken: string | null } | null = null;
      if (row.sync_token) {
        try {
          listed = await cal.listAll({ syncToken: row.sync_token, singleEvents: true, showDeleted: true });
          this.metrics.pulls.inc({ kind: 'incremental', outcome: 'ok' });
        } catch (err) {
          if (!isStatus(err, 410)) throw err;
          this.metrics.pulls.inc({ kind: 'incremental', outcome: 'gone' });
          this.log.info({ employeeId }, 'google sync token expired (410); full sync');
        }
      }
      let reconcile: { from: string; to: string | null; before: Date } | null = null;
      if (!listed) {
        total.full = true;
        const from = addDays(toJst(Date.now()).date, -this.pastDays);
        listed = await cal.listAll({ singleEvents: true, showDeleted: false, timeMin: `${from}T00:00:00+09:00` });
        reconcile = { from, to: null, before: startedAt };
        this.metrics.pulls.inc({ kind: 'full', outcome: 'ok' });
      }
      add(await this.apply(em, employeeId, row.google_email, listed.items, reconcile));
      if (listed.nextSyncToken)
        await em.execute(`update google_connection set sync_token = ? where employee_id = ?`, [
          listed.nextSyncToken,
          employeeId,
        ]);
      if (opts.month) {
        const r = monthRange(opts.month);
        const m = await cal.listAll({ singleEvents: true, showDeleted: true, timeMin: r.timeMin, timeMax: r.timeMax });
        add(await this.apply(em, employeeId, row.google_email, m.items, { from: r.from, to: r.to, before: startedAt }));
        this.metrics.pulls.inc({ kind: 'month', outcome: 'ok' });
      }
      await em.execute(`update google_connection set last_pull_at = clock_timestamp() where employee_id = ?`, [
        employeeId,
      ]);
      await this.connections.recordSuccess(em, employeeId);
      return total;
    } catch (err) {
      this.metrics.pulls.inc({ kind: 'any', outcome: 'error' });
      await em
        .execute(`update google_connection set last_pull_at = clock_timestamp() where employee_id = ?`, [employeeId])
        .catch(() => undefined);
      await this.connections.recordError(em, employeeId, err).catch(() => undefined);
      throw err;
    }
  }
}
