import { Migration } from '@mikro-orm/migrations';

/**
 * Login IDs are one per person whatever their case: sign-in compares `lower(login_id)`, so a
 * unique constraint on the text as written let `ADMIN` stand beside `admin`, and signing in as
 * `Admin` took whichever row the plan met first. The constraint becomes a unique index on
 * `lower(login_id)` (which sign-in's lookup now uses too).
 *
 * Login IDs that already differ only in case stop the migration, naming them, before anything
 * changes: rename all but one of each group (the staff form, or SQL), then start again.
 */
export class Migration20261126180000_login_id_case extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
      declare clashes text;
      begin
        select string_agg(ids, '; ' order by ids) into clashes from (
          select string_agg(format('%s (id %s)', login_id, id), ', ' order by id) as ids
          from employee group by lower(login_id) having count(*) > 1) g;
        if clashes is not null then
          raise exception 'Login IDs that differ only in case must be renamed before this migration (one login ID per person, whatever its case): %', clashes
            using errcode = 'unique_violation';
        end if;
      end $$;`);
    this.addSql(`alter table "employee" drop constraint "employee_login_id_key";`);
    this.addSql(`create unique index "employee_login_id_lower_key" on "employee" (lower("login_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "employee_login_id_lower_key";`);
    this.addSql(`alter table "employee" add constraint "employee_login_id_key" unique ("login_id");`);
  }
}
