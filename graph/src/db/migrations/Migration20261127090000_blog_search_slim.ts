import { Migration } from '@mikro-orm/migrations';

/**
 * blog_search_doc kept each text's n-gram keys as a stored array beside the text: three quarters
 * of a row (a body's row 1.7 KB, its keys 1.3 KB), so every row a search touches (the bounded
 * counts, the probes of the newest posts, the index path's candidates) read four times the bytes
 * it needed. The keys are now an expression of the row, indexed and never stored: the row carries
 * its post's category instead, and the per-source GIN indexes are on
 * `blog_search_keys(norm, category_id)`, which the search names verbatim (blog-search.queries.ts).
 * `@>` on an array GIN index needs no recheck, so the keys are not recomputed when searching.
 * Rows written before keep the dropped keys' bytes until rewritten (an edit, or `VACUUM FULL
 * blog_search_doc` at a quiet hour: it cannot run inside the migration's transaction).
 */
export class Migration20261127090000_blog_search_slim extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "blog_search_doc" add column "category_id" int null;`);
    this.addSql(
      `update "blog_search_doc" d set "category_id" = p.category_id from "blog_post" p where p.id = d.post_id and p.category_id is not null;`,
    );
    for (const name of ['title', 'body', 'comment'])
      this.addSql(`drop index if exists "blog_search_doc_${name}_grams_idx";`);
    this.addSql(`alter table "blog_search_doc" drop column "grams";`);
    // An index build runs its expression with only pg_catalog on the search path: the keys are
    // computed here with built-ins alone (the same keys as blog_search_grams prefixed).
    this
      .addSql(`create or replace function blog_search_keys(norm text, category int) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct coalesce(category, 0)::text || ':' || g), '{}') from (
        select substr(norm, i, 1) as g from generate_series(1, char_length(norm)) as i
        union all
        select substr(norm, i, 2) from generate_series(1, char_length(norm) - 1) as i) as s $$;`);
    this.addSql(
      `comment on column "blog_search_doc"."category_id" is 'the post''s category (keys are prefixed by it), kept by the triggers';`,
    );
    for (const [source, name] of [
      [0, 'title'],
      [1, 'body'],
      [2, 'comment'],
    ] as const) {
      this.addSql(
        `create index "blog_search_doc_${name}_keys_idx" on "blog_search_doc" using gin (blog_search_keys("norm", "category_id")) where "source" = ${source};`,
      );
    }
    // A search reads a few hundred rows at most per statement: parallel workers only cost their start
    // (the planner chose them for the index path's scans, 10–20 ms of a request's CPU each).
    this.addSql(`alter table "blog_search_doc" set (parallel_workers = 0);`);
    this
      .addSql(`create or replace function blog_search_upsert(post int, src smallint, comment int, t text, category int) returns void language sql as $$
      insert into blog_search_doc (post_id, source, comment_id, plain, norm, category_id)
      values (post, src, comment, coalesce(t, ''), blog_search_norm(t), category)
      on conflict (post_id, source, (coalesce(comment_id, 0))) do update set plain = excluded.plain, norm = excluded.norm, category_id = excluded.category_id $$;`);
    this.addSql(`create or replace function blog_search_post_sync() returns trigger language plpgsql as $$
      begin
        perform blog_search_upsert(new.id, 0::smallint, null, new.title, new.category_id);
        perform blog_search_upsert(new.id, 1::smallint, null, blog_search_html_text(new.content_html), new.category_id);
        if tg_op = 'UPDATE' and old.category_id is distinct from new.category_id then
          update blog_search_doc set category_id = new.category_id where post_id = new.id and source = 2;
        end if;
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "blog_search_doc" reset (parallel_workers);`);
    this
      .addSql(`create or replace function blog_search_keys(norm text, category int) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(coalesce(category, 0)::text || ':' || g), '{}') from unnest(blog_search_grams(norm)) as g $$;`);
    for (const name of ['title', 'body', 'comment'])
      this.addSql(`drop index if exists "blog_search_doc_${name}_keys_idx";`);
    this.addSql(`alter table "blog_search_doc" add column "grams" text[] not null default '{}';`);
    this.addSql(`update "blog_search_doc" set "grams" = blog_search_keys("norm", "category_id");`);
    this.addSql(`alter table "blog_search_doc" alter column "grams" drop default, drop column "category_id";`);
    for (const [source, name] of [
      [0, 'title'],
      [1, 'body'],
      [2, 'comment'],
    ] as const) {
      this.addSql(
        `create index "blog_search_doc_${name}_grams_idx" on "blog_search_doc" using gin ("grams") where "source" = ${source};`,
      );
    }
    this
      .addSql(`create or replace function blog_search_upsert(post int, src smallint, comment int, t text, category int) returns void language sql as $$
      insert into blog_search_doc (post_id, source, comment_id, plain, norm, grams)
      values (post, src, comment, coalesce(t, ''), blog_search_norm(t), blog_search_keys(blog_search_norm(t), category))
      on conflict (post_id, source, (coalesce(comment_id, 0))) do update set plain = excluded.plain, norm = excluded.norm, grams = excluded.grams $$;`);
    this.addSql(`create or replace function blog_search_post_sync() returns trigger language plpgsql as $$
      begin
        perform blog_search_upsert(new.id, 0::smallint, null, new.title, new.category_id);
        perform blog_search_upsert(new.id, 1::smallint, null, blog_search_html_text(new.content_html), new.category_id);
        if tg_op = 'UPDATE' and old.category_id is distinct from new.category_id then
          update blog_search_doc set grams = blog_search_keys(norm, new.category_id) where post_id = new.id and source = 2;
        end if;
        return null;
      end $$;`);
  }
}
