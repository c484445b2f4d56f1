import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from '../platform/logger.js';
import { OutboxEvent } from '../platform/events/outbox.entity.js';
import { AREAS } from '../modules/index.js';
import { Migration20261122000000_foundation } from './migrations/Migration20261122000000_foundation.js';
import { Migration20261122020000_events } from './migrations/Migration20261122020000_events.js';
import { Migration20261122010000_master_data } from './migrations/Migration20261122010000_master_data.js';
import { Migration20261122040000_schedules } from './migrations/Migration20261122040000_schedules.js';
import { Migration20261122030000_devices } from './migrations/Migration20261122030000_devices.js';
import { Migration20261122050000_google } from './migrations/Migration20261122050000_google.js';
import { Migration20261122060000_imports } from './migrations/Migration20261122060000_imports.js';
import { Migration20261122070000_google_attendees } from './migrations/Migration20261122070000_google_attendees.js';
import { Migration20261122080000_outbox_queue } from './migrations/Migration20261122080000_outbox_queue.js';
import { Migration20261122090000_history_audit_refs } from './migrations/Migration20261122090000_history_audit_refs.js';
import { Migration20261123000000_import_applied } from './migrations/Migration20261123000000_import_applied.js';
import { Migration20261124000000_event_retry } from './migrations/Migration20261124000000_event_retry.js';
import { Migration20261126000000_import_file_storage } from './migrations/Migration20261126000000_import_file_storage.js';
import { Migration20261126010000_unused_indexes } from './migrations/Migration20261126010000_unused_indexes.js';
import { Migration20261126180000_login_id_case } from './migrations/Migration20261126180000_login_id_case.js';
import { Migration20261126181000_ics_private_details } from './migrations/Migration20261126181000_ics_private_details.js';
import { Migration20261126220000_blog } from './migrations/Migration20261126220000_blog.js';
import { Migration20261126232000_blog_images } from './migrations/Migration20261126232000_blog_images.js';
import { Migration20261126230000_computer_warranty } from './migrations/Migration20261126230000_computer_warranty.js';
import { Migration20261127000000_history_reveals } from './migrations/Migration20261127000000_history_reveals.js';
import { Migration20261127010000_blog_scheduler } from './migrations/Migration20261127010000_blog_scheduler.js';
import { Migration20261127020000_blog_engagement } from './migrations/Migration20261127020000_blog_engagement.js';
import { Migration20261127030000_blog_comments } from './migrations/Migration20261127030000_blog_comments.js';
import { Migration20261127040000_notifications } from './migrations/Migration20261127040000_notifications.js';
import { Migration20261127043000_blog_search } from './migrations/Migration20261127043000_blog_search.js';
import { Migration20261127050000_blog_required_reading } from './migrations/Migration20261127050000_blog_required_reading.js';
import { Migration20261127060000_outbox_xid } from './migrations/Migration20261127060000_outbox_xid.js';
import { Migration20261127090000_blog_search_slim } from './migrations/Migration20261127090000_blog_search_slim.js';
import { Migration20261206000000_write_throttle } from './migrations/Migration20261206000000_write_throttle.js';
import { Migration20261206010000_password_change } from './migrations/Migration20261206010000_password_change.js';
import { Migration20261206020000_reading_reminders } from './migrations/Migration20261206020000_reading_reminders.js';
import { Migration20261206030000_api_keys } from './migrations/Migration20261206030000_api_keys.js';
import { Migration20261206040000_blog_statistics } from './migrations/Migration20261206040000_blog_statistics.js';
import { Migration20261207000000_profiles } from './migrations/Migration20261207000000_profiles.js';
import { Migration20261207010000_profile_images } from './migrations/Migration20261207010000_profile_images.js';
import { Migration20261207020000_idempotency } from './migrations/Migration20261207020000_idempotency.js';
import { Migration20261207030000_blog_statistics_spans } from './migrations/Migration20261207030000_blog_statistics_spans.js';
import { Migration20261207040000_blog_statistics_authors } from './migrations/Migration20261207040000_blog_statistics_authors.js';
import { Migration20261207050000_google_quota } from './migrations/Migration20261207050000_google_quota.js';
import { Migration20261207060000_blog_like_order } from './migrations/Migration20261207060000_blog_like_order.js';
import { Migration20261207070000_blog_comment_edit } from './migrations/Migration20261207070000_blog_comment_edit.js';
import { Migration20261207080000_profile_notifications } from './migrations/Migration20261207080000_profile_notifications.js';
import { Migration20261207090000_profile_comment_edit } from './migrations/Migration20261207090000_profile_comment_edit.js';
import { Migration20261207100000_blog_post_revision } from './migrations/Migration20261207100000_blog_post_revision.js';
import { Migration20261207110000_mentions } from './migrations/Migration20261207110000_mentions.js';

/** The platform's outbox and every entity of every area in `AREAS`. */
export const entities = [OutboxEvent, ...AREAS.flatMap((a) => a.entities ?? [])];

/** Committed migrations, in order. `npm start` applies them; nothing ever runs schema:update. */
export const migrationsList = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_master_data', class: Migration20261122010000_master_data },
  { name: 'Migration20261122020000_events', class: Migration20261122020000_events },
  { name: 'Migration20261122030000_devices', class: Migration20261122030000_devices },
  { name: 'Migration20261122040000_schedules', class: Migration20261122040000_schedules },
  { name: 'Migration20261122050000_google', class: Migration20261122050000_google },
  { name: 'Migration20261122060000_imports', class: Migration20261122060000_imports },
  { name: 'Migration20261122070000_google_attendees', class: Migration20261122070000_google_attendees },
  { name: 'Migration20261122080000_outbox_queue', class: Migration20261122080000_outbox_queue },
  { name: 'Migration20261122090000_history_audit_refs', class: Migration20261122090000_history_audit_refs },
  { name: 'Migration20261123000000_import_applied', class: Migration20261123000000_import_applied },
  { name: 'Migration20261124000000_event_retry', class: Migration20261124000000_event_retry },
  { name: 'Migration20261126000000_import_file_storage', class: Migration20261126000000_import_file_storage },
  { name: 'Migration20261126010000_unused_indexes', class: Migration20261126010000_unused_indexes },
  { name: 'Migration20261126180000_login_id_case', class: Migration20261126180000_login_id_case },
  { name: 'Migration20261126181000_ics_private_details', class: Migration20261126181000_ics_private_details },
  { name: 'Migration20261126220000_blog', class: Migration20261126220000_blog },
  { name: 'Migration20261126230000_computer_warranty', class: Migration20261126230000_computer_warranty },
  { name: 'Migration20261126232000_blog_images', class: Migration20261126232000_blog_images },
  { name: 'Migration20261127000000_history_reveals', class: Migration20261127000000_history_reveals },
  { name: 'Migration20261127010000_blog_scheduler', class: Migration20261127010000_blog_scheduler },
  { name: 'Migration20261127020000_blog_engagement', class: Migration20261127020000_blog_engagement },
  { name: 'Migration20261127030000_blog_comments', class: Migration20261127030000_blog_comments },
  { name: 'Migration20261127040000_notifications', class: Migration20261127040000_notifications },
  { name: 'Migration20261127043000_blog_search', class: Migration20261127043000_blog_search },
  { name: 'Migration20261127050000_blog_required_reading', class: Migration20261127050000_blog_required_reading },
  { name: 'Migration20261127060000_outbox_xid', class: Migration20261127060000_outbox_xid },
  { name: 'Migration20261127090000_blog_search_slim', class: Migration20261127090000_blog_search_slim },
  { name: 'Migration20261206000000_write_throttle', class: Migration20261206000000_write_throttle },
  { name: 'Migration20261206010000_password_change', class: Migration20261206010000_password_change },
  { name: 'Migration20261206020000_reading_reminders', class: Migration20261206020000_reading_reminders },
  { name: 'Migration20261206030000_api_keys', class: Migration20261206030000_api_keys },
  { name: 'Migration20261206040000_blog_statistics', class: Migration20261206040000_blog_statistics },
  { name: 'Migration20261207000000_profiles', class: Migration20261207000000_profiles },
  { name: 'Migration20261207010000_profile_images', class: Migration20261207010000_profile_images },
  { name: 'Migration20261207020000_idempotency', class: Migration20261207020000_idempotency },
  { name: 'Migration20261207030000_blog_statistics_spans', class: Migration20261207030000_blog_statistics_spans },
  { name: 'Migration20261207040000_blog_statistics_authors', class: Migration20261207040000_blog_statistics_authors },
  { name: 'Migration20261207050000_google_quota', class: Migration20261207050000_google_quota },
  { name: 'Migration20261207060000_blog_like_order', class: Migration20261207060000_blog_like_order },
  { name: 'Migration20261207070000_blog_comment_edit', class: Migration20261207070000_blog_comment_edit },
  {
    name: 'Migration20261207080000_profile_notifications',
    class: Migration20261207080000_profile_notifications,
  },
  { name: 'Migration20261207090000_profile_comment_edit', class: Migration20261207090000_profile_comment_edit },
  { name: 'Migration20261207100000_blog_post_revision', class: Migration20261207100000_blog_post_revision },
  { name: 'Migration20261207110000_mentions', class: Migration20261207110000_mentions },
];

/** knex's own warnings (a pooled connection PostgreSQL dropped, say) as structured log lines, not console text. */
function knexLog(log: Logger) {
  return {
    warn: (message: unknown) => log.warn({ knex: String(message) }, 'database driver warning'),
    error: (message: unknown) => log.error({ knex: String(message) }, 'database driver error'),
    deprecate: () => undefined,
    debug: () => undefined,
  };
}

export function ormOptions(clientUrl: string, poolMax = 10, log?: Logger): Options {
  return {
    ...(log ? { driverOptions: { log: knexLog(log) } } : {}),
    clientUrl,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    debug: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
  };
}

export async function openOrm(clientUrl: string, poolMax?: number, log?: Logger): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl, poolMax, log));
}

/** The advisory lock that serialises migrating (and a first start's seed) across processes. */
const MIGRATION_LOCK = 70_401;

/**
 * Applies the pending migrations, then `afterwards` (a first start's seed), while holding a lock
 * that every instance takes first: instances started together after an upgrade migrate one after
 * another, the later ones finding nothing left to do, instead of failing on each other's tables.
 * The lock is a session lock on a connection of its own, released when that connection ends.
 */
export async function migrate<T = void>(
  orm: MikroORM,
  afterwards?: () => Promise<T>,
): Promise<{ applied: string[]; result: T | undefined }> {
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  lock.on('error', () => undefined); // a dropped connection fails the query in flight, which says so
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = (await orm.getMigrator().up()).map((m) => m.name);
    return { applied, result: afterwards ? await afterwards() : undefined };
  } finally {
    await lock.end().catch(() => undefined);
  }
}

/** Names of committed migrations not yet applied (healthz reports them). */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const pending = await orm.getMigrator().getPendingMigrations();
  return pending.map((m) => m.name);
}
