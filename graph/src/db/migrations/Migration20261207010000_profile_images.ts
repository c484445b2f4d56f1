import { Migration } from '@mikro-orm/migrations';

/**
 * A profile's pictures (modules/profiles/profile-image.service.ts): the avatar, hobby and talent
 * photos and the header background, each stored as a display-size WebP and a thumbnail. An upload
 * belongs to its uploader until their profile's save binds it (`profile_id`, `position`); unbound
 * ones are swept.
 */
export class Migration20261207010000_profile_images extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "profile_image" (
      "key" text primary key,
      "thumb_key" text not null,
      "kind" text not null check ("kind" in ('avatar', 'hobby', 'talent', 'header')),
      "uploaded_by_id" int not null references "employee" ("id") on delete cascade,
      "profile_id" int null references "profile" ("id") on delete set null,
      "position" int not null default 0,
      "width" int not null,
      "height" int not null,
      "size" int not null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "profile_image_profile" on "profile_image" ("profile_id", "kind", "position") where "profile_id" is not null;`,
    );
    this.addSql(`create index "profile_image_unbound" on "profile_image" ("created_at") where "profile_id" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "profile_image";`);
  }
}
