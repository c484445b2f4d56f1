import { Migration } from '@mikro-orm/migrations';

/**
 * Excel import of computers: the stable key 管理番号 (asset number) on computers, and import jobs
 * (the uploaded file, progress, counts, the planned actions of a preview) with their per-row errors.
 */
export class Migration20261122060000_imports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "computer" add column "asset_number" varchar(50) null;`);
    this.addSql(`alter table "computer" add constraint "computer_asset_number_key" unique ("asset_number");`);

    this.addSql(`create table "import_job" (
      "id" uuid primary key,
      "kind" text not null default 'computers' check ("kind" in ('computers')),
      "mode" text not null check ("mode" in ('preview', 'apply')),
      "status" text not null default 'queued' check ("status" in ('queued', 'running', 'succeeded', 'failed')),
      "file_name" text not null,
      "format" text not null check ("format" in ('xlsx', 'xls')),
      "file" bytea null,
      "total_rows" int null,
      "processed_rows" int not null default 0,
      "created" int not null default 0,
      "updated" int not null default 0,
      "unchanged" int not null default 0,
      "rejected" int not null default 0,
      "error" text null,
      "preview" jsonb not null default '[]'::jsonb,
      "created_by" int null references "employee" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "finished_at" timestamptz null);`);
    this.addSql(`create index "import_job_created_at_idx" on "import_job" ("created_at");`);
    this.addSql(`create table "import_job_error" (
      "id" bigserial primary key,
      "job_id" uuid not null references "import_job" ("id") on delete cascade,
      "row" int not null,
      "column" text null,
      "reason" text not null);`);
    this.addSql(`create index "import_job_error_job_idx" on "import_job_error" ("job_id", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "import_job_error";`);
    this.addSql(`drop table if exists "import_job";`);
    this.addSql(`alter table "computer" drop column if exists "asset_number";`);
  }
}
