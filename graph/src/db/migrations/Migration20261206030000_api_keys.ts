import { Migration } from '@mikro-orm/migrations';

/**
 * API keys for other internal tools (modules/auth/api-key.service.ts): only the secret's SHA-256 is
 * kept; a key acts for the 管理者 who made it, with the role chosen for it. Revoked keys stay, as
 * the audit of who made and who revoked each.
 */
export class Migration20261206030000_api_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "api_key" (
      "id" serial primary key,
      "name" text not null,
      "prefix" text not null,
      "secret_hash" text not null unique,
      "role" text not null,
      "read_only" boolean not null,
      "employee_id" int not null references "employee" ("id"),
      "expires_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null,
      "revoked_by_id" int null references "employee" ("id")
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "api_key";`);
  }
}
