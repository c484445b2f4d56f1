import { Migration } from '@mikro-orm/migrations';

/**
 * device_history is an audit log: who changed a device, who held it before and after, where it was.
 * Its employee and location columns were foreign keys `on delete set null`, so deleting an employee
 * or a location erased them from every past entry. They now keep the id whatever happens to the
 * referenced row later (the timeline shows a deleted one as 「削除済み（ID: n）」).
 *
 * It also makes history writes cheaper: every history row fired five RI triggers (one lookup with
 * FOR KEY SHARE each); the import writes one history row per computer. The values written are the
 * device's own user and location at the time of the change, which the device's foreign keys have
 * just checked in the same transaction. device_id has never been a foreign key (two device tables).
 */
export class Migration20261122090000_history_audit_refs extends Migration {
  override async up(): Promise<void> {
    for (const c of ['actor_id', 'from_user_id', 'to_user_id', 'from_location_id', 'to_location_id']) {
      this.addSql(`alter table "device_history" drop constraint if exists "device_history_${c}_fkey";`);
    }
  }
}
