import type { AppContext } from '../../../platform/context.js';
import type { CursorSealer } from '../../../platform/cursor.js';
import { checkPage } from '../../../platform/pagination.js';
import { execBound } from '../../../platform/sql.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import type { BlogPostView } from '../blog-post.types.js';
import {
  decodeSearchCursor,
  encodeSearchCursor,
  matchedTexts,
  searchPage,
  SOURCES,
  type RunSql,
  type SearchSource,
} from './blog-search.queries.js';
import { checkQuery, snippetOf, type Snippet } from './blog-search.text.js';

const DEFAULT_PAGE = 20;

export interface SearchHit {
  post: BlogPostView;
  /** The best place it matched (the ranking's first key). */
  matchedIn: SearchSource;
  /** Each place it matched: the whole title, a window of the body, the newest matching comment. */
  snippets: (Snippet & { source: SearchSource })[];
}

export interface SearchPage {
  items: SearchHit[];
  nextCursor: string | null;
}

/**
 * Search over the posts the viewer may read (the one visibility rule, blog-post.visibility.ts):
 * titles, bodies and comments, any one or more characters, Japanese or not. Words separated by
 * spaces are terms that must all be found, each anywhere in the post (its title, body or any of its
 * comments); "..." keeps a phrase. Ranked by where the post has them all: every term in its title
 * first, then with the body, then with comments; each newest publish start first; continued by
 * `nextCursor`. The index and its two paths: blog-search.queries.ts.
 */
export class BlogSearchService {
  /** `cursors` seals nextCursor: where a walk stopped may be a post the caller cannot see. */
  constructor(
    private readonly posts: BlogPostReads,
    private readonly cursors: CursorSealer,
  ) {}

  async search(ctx: AppContext, query: unknown, after?: string | null, limit?: unknown): Promise<SearchPage> {
    const terms = checkQuery(query);
    const run: RunSql = (sql, params) => execBound(ctx.em, sql, params);
    const page = checkPage(0, limit ?? DEFAULT_PAGE);
    const cursor = decodeSearchCursor(this.cursors.open(after));
    let found: Awaited<ReturnType<typeof searchPage>> = { hits: [], next: null };
    let reading: Promise<Awaited<ReturnType<typeof matchedTexts>>> = Promise.resolve([]);
    const views = await this.posts.readableViews(ctx, async (viewer) => {
      found = await searchPage(run, viewer, terms, cursor, page.limit);
      const ids = found.hits.map((h) => h.id);
      // The snippets' texts are read while the posts are (another pooled connection); only the
      // posts that pass mayRead below are shown with them.
      reading = matchedTexts(run, ids, terms);
      reading.catch(() => undefined);
      return ids;
    });
    const texts = await reading;
    const level = new Map(found.hits.map((h) => [h.id, h.level]));
    return {
      items: views.map((post) => ({
        post,
        matchedIn: SOURCES[level.get(post.id)!],
        snippets: texts
          .filter((t) => t.post_id === post.id)
          .map((t) => ({ source: SOURCES[t.source], ...snippetOf(t.plain, terms) })),
      })),
      nextCursor: found.next ? this.cursors.seal(encodeSearchCursor(found.next)) : null,
    };
  }
}
