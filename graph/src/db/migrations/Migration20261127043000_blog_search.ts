import { Migration } from '@mikro-orm/migrations';

/**
 * Search over blog posts (titles, bodies, comments) that works for Japanese, where words are not
 * separated by spaces and one- and two-character words (会議, 総務, AI) matter. pg_trgm cannot
 * index a query under three characters and neither pg_bigm nor PGroonga is available, so each
 * searchable text has one row in blog_search_doc: its plain text, the text normalized (NFKC, lower
 * case, whitespace runs as one space; katakana and hiragana as they are) and the distinct
 * characters and character pairs of that, under a GIN index per source. A query of one character
 * looks its character up, a longer one all its pairs, and a substring match on the normalized
 * text confirms (modules/blog/search/blog-search.queries.ts). Each key carries the post's category
 * (`12:会`, `0:` without one): a lookup names the viewer's categories and reads only their lists, so
 * a word common in categories the viewer cannot see costs them nothing.
 *
 * Triggers keep the rows in the transaction that writes the post or comment, whoever writes it (the
 * services, the demo and bench seeders); deleting a post or comment deletes its rows by cascade.
 * The normalization here and normalizeQuery in blog-search.text.ts must stay the same function.
 */
export class Migration20261127043000_blog_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function blog_search_norm(t text) returns text language sql immutable parallel safe as $$
      select btrim(regexp_replace(lower(normalize(coalesce(t, ''), NFKC)), '\\s+', ' ', 'g')) $$;`);
    this.addSql(`create function blog_search_grams(t text) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct g), '{}') from (
        select substr(t, i, 1) as g from generate_series(1, char_length(t)) as i
        union all
        select substr(t, i, 2) from generate_series(1, char_length(t) - 1) as i) as s $$;`);
    // A body's text from its sanitized HTML (blocks on their own lines, inline tags dropped so a
    // word split by <b> stays one word, the entities the renderer writes decoded).
    this.addSql(`create function blog_search_html_text(h text) returns text language sql immutable parallel safe as $$
      select btrim(replace(replace(replace(replace(replace(replace(
               regexp_replace(regexp_replace(coalesce(h, ''), '<(/?(p|h[1-6]|li|ul|ol|figure|figcaption|blockquote|div|table|tr|td|th)|br)\\y[^>]*>', E'\\n', 'gi'), '<[^>]*>', '', 'g'),
               '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'), E' \\n') $$;`);
    this
      .addSql(`create function blog_search_keys(norm text, category int) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(coalesce(category, 0)::text || ':' || g), '{}') from unnest(blog_search_grams(norm)) as g $$;`);
    this.addSql(`create table "blog_search_doc" (
      "id" bigserial primary key,
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "source" smallint not null check ("source" in (0, 1, 2)),
      "comment_id" int null references "blog_comment" ("id") on delete cascade,
      "plain" text not null,
      "norm" text not null,
      "grams" text[] not null,
      check (("source" = 2) = ("comment_id" is not null)));`);
    this.addSql(`comment on column "blog_search_doc"."source" is '0 title, 1 body, 2 a comment';`);
    // One row per post and source (a comment's by its id); the search probes a post's rows by it.
    this.addSql(
      `create unique index "blog_search_doc_key" on "blog_search_doc" ("post_id", "source", (coalesce("comment_id", 0)));`,
    );
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
      .addSql(`create function blog_search_upsert(post int, src smallint, comment int, t text, category int) returns void language sql as $$
      insert into blog_search_doc (post_id, source, comment_id, plain, norm, grams)
      values (post, src, comment, coalesce(t, ''), blog_search_norm(t), blog_search_keys(blog_search_norm(t), category))
      on conflict (post_id, source, (coalesce(comment_id, 0))) do update set plain = excluded.plain, norm = excluded.norm, grams = excluded.grams $$;`);
    this.addSql(`create function blog_search_post_sync() returns trigger language plpgsql as $$
      begin
        perform blog_search_upsert(new.id, 0::smallint, null, new.title, new.category_id);
        perform blog_search_upsert(new.id, 1::smallint, null, blog_search_html_text(new.content_html), new.category_id);
        if tg_op = 'UPDATE' and old.category_id is distinct from new.category_id then
          update blog_search_doc set grams = blog_search_keys(norm, new.category_id) where post_id = new.id and source = 2;
        end if;
        return null;
      end $$;`);
    this.addSql(`create function blog_search_comment_sync() returns trigger language plpgsql as $$
      begin
        perform blog_search_upsert(new.post_id, 2::smallint, new.id, new.content, (select category_id from blog_post where id = new.post_id));
        return null;
      end $$;`);
    this.addSql(
      `create trigger "blog_search_post_insert" after insert on "blog_post" for each row execute function blog_search_post_sync();`,
    );
    this
      .addSql(`create trigger "blog_search_post_update" after update of "title", "content_html", "category_id" on "blog_post" for each row
      when (old.title is distinct from new.title or old.content_html is distinct from new.content_html or old.category_id is distinct from new.category_id)
      execute function blog_search_post_sync();`);
    this.addSql(
      `create trigger "blog_search_comment_insert" after insert on "blog_comment" for each row execute function blog_search_comment_sync();`,
    );
    this.addSql(`create trigger "blog_search_comment_update" after update of "content" on "blog_comment" for each row
      when (old.content is distinct from new.content) execute function blog_search_comment_sync();`);
    // What was written before this migration.
    this.addSql(
      `select blog_search_upsert(id, 0::smallint, null, title, category_id), blog_search_upsert(id, 1::smallint, null, blog_search_html_text(content_html), category_id) from blog_post;`,
    );
    this.addSql(
      `select blog_search_upsert(c.post_id, 2::smallint, c.id, c.content, p.category_id) from blog_comment c join blog_post p on p.id = c.post_id;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "blog_search_post_insert" on "blog_post";`);
    this.addSql(`drop trigger if exists "blog_search_post_update" on "blog_post";`);
    this.addSql(`drop trigger if exists "blog_search_comment_insert" on "blog_comment";`);
    this.addSql(`drop trigger if exists "blog_search_comment_update" on "blog_comment";`);
    this.addSql(`drop table if exists "blog_search_doc";`);
    this
      .addSql(`drop function if exists blog_search_post_sync(), blog_search_comment_sync(), blog_search_upsert(int, smallint, int, text, int),
      blog_search_keys(text, int), blog_search_html_text(text), blog_search_grams(text), blog_search_norm(text);`);
  }
}
