import type { EventEnvelope } from '@intranet/schema/events';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';

/** The dates a cached answer shows: a change to an entry overlapping them drops it. */
export interface DateRange {
  from: string;
  to: string;
}

interface Cached<V> {
  range: DateRange;
  value: V;
  bytes: number;
}

/** What a reader holds between its look-up and its store: the generation it read under. */
export type CacheTicket = number;

export interface GridCacheStats {
  hits: number;
  misses: number;
  stores: number;
  /** Stores refused because something was invalidated while the answer was being computed. */
  raced: number;
  /** Look-ups and stores passed by while the live feed could not vouch for the cache. */
  bypassed: number;
  evictions: number;
  invalidations: number;
  entries: number;
  bytes: number;
}

/** Aggregate types whose events can change a week grid's answer, and why. */
const CLEARS_ALL = new Set([
  // an employee's name, status (retired people leave the grid), department (filter and
  // department name) or role: any employee change drops every page (they are rare)
  'employee.created',
  'employee.updated',
  // a department's name is on every row of its members; membership moves people between filters
  'department.created',
  'department.updated',
]);

type SchedulePayload = { schedule?: ScheduleSnapshot; previous?: ScheduleSnapshot };

/**
 * Week-grid answers (ScheduleGridCachePlugin: the whole GraphQL result of a grid-only operation),
 * kept per viewer, document, variables and date range, evicted least recently used beyond a byte
 * budget, and dropped by the committed events that can change them: schedule events drop the
 * answers whose dates overlap the entry's (before and after an edit); employee and department
 * changes drop everything.
 *
 * Why per viewer: every page is drawn for its viewer (their own row first, their private entries
 * in full and others' as busy time, their own answers and declined invitations), so two viewers'
 * pages are never assumed equal.
 *
 * Races: `begin()` hands out the current generation before the answer is computed; every
 * invalidation starts a new generation, and `put` refuses an answer computed under an older one
 * (it may have read the database before the change committed). Events reach the cache twice in
 * the writing process (after its commit, before it answers: read-your-writes; then through the
 * live feed, as on every other instance); the second is a harmless extra invalidation.
 */
export class ScheduleGridCache<V = unknown> {
  private readonly entries = new Map<string, Cached<V>>();
  private generation = 0;
  private bytes = 0;
  private readonly counts = { hits: 0, misses: 0, stores: 0, raced: 0, bypassed: 0, evictions: 0, invalidations: 0 };
  /** Whether the live feed that invalidates this cache is current (platform/live/freshness.ts). */
  private fresh: () => boolean = () => true;
  private wasFresh = true;

  /**
   * @param maxBytes budget over the answers' JSON sizes (0 turns the cache off); one answer
   *   larger than a quarter of it is not kept.
   * @param maxEntries a bound on the number of answers whatever their size.
   */
  constructor(
    readonly maxBytes: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /**
   * Serves and keeps answers only while `fresh()`: while the feed lags (the broker down, another
   * instance's writes unpublished), a kept answer may miss a change, so every look-up misses and
   * nothing is kept; once it is current again, what was kept before is dropped.
   */
  trustWhile(fresh: () => boolean): void {
    this.fresh = fresh;
  }

  /** Whether the cache may serve now; on the way back from a lag, it starts empty. */
  private trusted(): boolean {
    const now = this.fresh();
    if (now && !this.wasFresh) this.clear();
    this.wasFresh = now;
    if (!now) this.counts.bypassed++;
    return now;
  }

  begin(): CacheTicket {
    return this.generation;
  }

  /** `countMiss` false: a look-up that another one follows on a miss (the HTTP fast path before Apollo). */
  get(key: string, countMiss = true): V | undefined {
    if (!this.trusted()) return undefined;
    const hit = this.entries.get(key);
    if (!hit) {
      if (countMiss) this.counts.misses++;
      return undefined;
    }
    // Most recently used last: re-insert.
    this.entries.delete(key);
    this.entries.set(key, hit);
    this.counts.hits++;
    return hit.value;
  }

  /** Keeps an answer computed since `ticket` was taken, unless something changed meanwhile. */
  put(ticket: CacheTicket, key: string, range: DateRange, value: V, bytes: number): boolean {
    if (!this.enabled || bytes > this.maxBytes / 4 || !this.trusted()) return false;
    if (ticket !== this.generation) {
      this.counts.raced++;
      return false;
    }
    this.drop(key);
    this.entries.set(key, { range, value, bytes });
    this.bytes += bytes;
    this.counts.stores++;
    while (this.bytes > this.maxBytes || this.entries.size > this.maxEntries) {
      this.drop(this.entries.keys().next().value!);
      this.counts.evictions++;
    }
    return true;
  }

  /** Drops what the committed events can have changed (see the class comment). */
  invalidate(events: readonly EventEnvelope[]): void {
    for (const e of events) {
      if (CLEARS_ALL.has(e.type)) this.clear();
      else if (e.aggregateType === 'schedule') {
        const { schedule, previous } = e.payload as SchedulePayload;
        if (!schedule)
          this.clear(); // not a shape this cache knows: be safe
        else {
          this.dropOverlapping(schedule.startDate, schedule.endDate);
          if (previous) this.dropOverlapping(previous.startDate, previous.endDate);
        }
      }
    }
  }

  clear(): void {
    this.generation++;
    this.counts.invalidations++;
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): GridCacheStats {
    return { ...this.counts, entries: this.entries.size, bytes: this.bytes };
  }

  private dropOverlapping(from: string, to: string) {
    this.generation++;
    this.counts.invalidations++;
    for (const [key, c] of this.entries) if (c.range.from <= to && from <= c.range.to) this.drop(key);
  }

  private drop(key: string) {
    const c = this.entries.get(key);
    if (!c) return;
    this.entries.delete(key);
    this.bytes -= c.bytes;
  }
}
