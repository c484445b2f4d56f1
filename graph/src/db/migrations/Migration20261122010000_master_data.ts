import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010000_master_data extends Migration {
  override async up(): Promise<void> {
    // Who saved last, so a conflicting save can say whose change it ran into.
    for (const t of ['employee', 'department']) {
      this.addSql(
        `alter table "${t}" add column "updated_by_id" int null references "employee" ("id") on delete set null;`,
      );
    }
    this.addSql(`create index "department_name_trgm" on "department" using gin ("name" gin_trgm_ops);`);
  }
}
