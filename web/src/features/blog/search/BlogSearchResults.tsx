import { useEffect, useState } from 'react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { Button, Select, Spinner, TextInput } from '@primer/react';
import { useT } from '../../../app/i18n';
import { displayDate } from '../../../components/master-options';
import { readError } from '../../../components/gql-errors';
import type { BlogSearchOrder, BlogSearchQuery as SearchAnswer } from '../../../gql/graphql';
import { AuthorBadge, CategoryLabel, StateLabel, type BlogCardPost } from '../BlogCard';
import { BlogFilterOptionsQuery, BlogPostQuery } from '../operations';
import { BlogSearchQuery } from './operations';
import { useSearchText } from './search.i18n';
import blogStyles from '../blog.module.css';
import styles from './search.module.css';
import { AuthorFilter } from './AuthorFilter';

type Hit = SearchAnswer['blogSearch']['items'][number];
type Snippet = Hit['snippets'][number];

/** The snippet's text with its ranges in <mark> (the server sends plain text and offsets, never HTML). */
export function Marked({ snippet }: { snippet: Pick<Snippet, 'text' | 'highlights'> }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const { start, length } of [...snippet.highlights].sort((a, b) => a.start - b.start)) {
    if (start < at) continue;
    if (start > at) parts.push(snippet.text.slice(at, start));
    parts.push(<mark key={start}>{snippet.text.slice(start, start + length)}</mark>);
    at = start + length;
  }
  parts.push(snippet.text.slice(at));
  return <>{parts}</>;
}

interface State {
  items: Hit[];
  next: string | null;
  loading: boolean;
  error: string | null;
  /** How many the search finds (its first page says, when cheap to know). */
  total: number | null;
}

/** What the results are narrowed to and their order (kept while the words change). */
interface Narrowing {
  order: BlogSearchOrder;
  categoryId: string;
  authorId: string;
  from: string;
  to: string;
}
const NONE: Narrowing = { order: 'RELEVANCE', categoryId: '', authorId: '', from: '', to: '' };

/**
 * The ranked hits of one query (title hits first, then body, then comment hits, each newest
 * first): the title with its matches marked, the body's or a comment's snippet, もっと見る on the
 * server's cursor. A hit opens the post as a card does (`onOpen`, after reading the whole post).
 * Loaded only when searching.
 */
export default function BlogSearchResults({ query, onOpen }: { query: string; onOpen(p: BlogCardPost): void }) {
  const t = useT();
  const text = useSearchText();
  const client = useApolloClient();
  const [state, setState] = useState<State>({ items: [], next: null, loading: true, error: null, total: null });
  const [narrowing, setNarrowing] = useState<Narrowing>(NONE);
  const { data: options } = useQuery(BlogFilterOptionsQuery, { fetchPolicy: 'cache-first' });
  const categories = (options?.blogCategories ?? []).filter((c) => c.isMember);

  const load = async (after: string | null, keep: Hit[]) => {
    const total = after ? state.total : null;
    setState({ items: keep, next: null, loading: true, error: null, total });
    try {
      // The server bounds each request's work: a page may come short, even empty, with a cursor to
      // go on. An empty one is followed at once (a few times), so the list never shows nothing while more is coming.
      let cursor = after;
      let items = keep;
      let counted = total;
      for (let i = 0; i < 10; i++) {
        const { data } = await client.query({
          query: BlogSearchQuery,
          variables: {
            query,
            after: cursor,
            order: narrowing.order,
            filter: {
              categoryId: narrowing.categoryId ? Number(narrowing.categoryId) : null,
              authorId: narrowing.authorId ? Number(narrowing.authorId) : null,
              from: narrowing.from || null,
              to: narrowing.to || null,
            },
          },
          fetchPolicy: 'no-cache',
        });
        const page = data!.blogSearch;
        if (!after && !cursor) counted = page.totalCount ?? null;
        items = [...items, ...page.items];
        cursor = page.nextCursor ?? null;
        if (page.items.length || !cursor) break;
      }
      setState({ items, next: cursor, loading: false, error: null, total: counted });
    } catch (e) {
      const err = readError(e);
      // The server's own Japanese message for bad input (the box checks first); otherwise one general line.
      setState({
        items: keep,
        next: null,
        loading: false,
        error: err.code === 'BAD_USER_INPUT' ? err.message : text('failed'),
        total: null,
      });
    }
  };
  // A hit carries what its line shows; the dialog gets the whole post (likes, saves, New!) on opening.
  const openHit = async (id: number) => {
    try {
      const { data } = await client.query({ query: BlogPostQuery, variables: { id }, fetchPolicy: 'no-cache' });
      if (data) onOpen(data.blogPost);
    } catch {
      setState((s) => ({ ...s, error: text('openFailed') }));
    }
  };
  useEffect(() => {
    void load(null, []);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- new words or a new narrowing start over; load reads them
  }, [query, narrowing]);
  const narrow = (k: keyof Narrowing) => (e: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>) =>
    setNarrowing((n) => ({ ...n, [k]: e.target.value }));
  const narrowed = narrowing.categoryId || narrowing.authorId || narrowing.from || narrowing.to;

  return (
    <section aria-label={text('results', { q: query })} data-testid="blog-search-results">
      <h2 className={styles.heading}>{text('results', { q: query })}</h2>
      <div className={styles.tools} role="group" aria-label={text('narrow')} data-testid="blog-search-tools">
        <label className={styles.tool}>
          <span>{text('order')}</span>
          <Select value={narrowing.order} onChange={narrow('order')} data-testid="blog-search-order">
            <Select.Option value={'RELEVANCE'}>{text('orderRelevance')}</Select.Option>
            <Select.Option value={'NEWEST'}>{text('orderNewest')}</Select.Option>
          </Select>
        </label>
        <label className={styles.tool}>
          <span>{text('category')}</span>
          <Select value={narrowing.categoryId} onChange={narrow('categoryId')} data-testid="blog-search-category">
            <Select.Option value="">{text('allCategories')}</Select.Option>
            {categories.map((c) => (
              <Select.Option key={c.id} value={String(c.id)}>
                {c.name}
              </Select.Option>
            ))}
          </Select>
        </label>
        <AuthorFilter value={narrowing.authorId} onChange={(authorId) => setNarrowing((n) => ({ ...n, authorId }))} />
        <label className={styles.tool}>
          <span>{text('from')}</span>
          <TextInput type="date" value={narrowing.from} onChange={narrow('from')} data-testid="blog-search-from" />
        </label>
        <label className={styles.tool}>
          <span>{text('to')}</span>
          <TextInput type="date" value={narrowing.to} onChange={narrow('to')} data-testid="blog-search-to" />
        </label>
        {narrowed && (
          <Button size="small" variant="invisible" onClick={() => setNarrowing((n) => ({ ...NONE, order: n.order }))}>
            {text('resetNarrow')}
          </Button>
        )}
      </div>
      {!state.loading && !state.error && (
        <p className={styles.count} role="status" data-testid="blog-search-count">
          {state.total !== null
            ? text('count', { n: state.total.toLocaleString('ja-JP') })
            : state.items.length
              ? text('countMany')
              : ''}
        </p>
      )}
      <ol className={styles.list}>
        {state.items.map((hit) => {
          const title = hit.snippets.find((s) => s.source === 'TITLE');
          const other = hit.snippets.find((s) => s.source !== 'TITLE');
          return (
            <li key={hit.post.id}>
              <button
                type="button"
                className={styles.hit}
                onClick={() => void openHit(hit.post.id)}
                data-testid="blog-search-hit"
                data-matched={hit.matchedIn}
              >
                <span className={styles.hitHead}>
                  <span className={styles.hitTitle} data-testid="blog-search-title">
                    {title ? <Marked snippet={title} /> : hit.post.title}
                  </span>
                  <StateLabel post={hit.post} />
                </span>
                <span className={styles.meta}>
                  <CategoryLabel category={hit.post.category} />
                  <time dateTime={hit.post.publishStart}>{displayDate(hit.post.publishStart)}</time>
                  <AuthorBadge name={hit.post.author.name} id={hit.post.author.id} />
                </span>
                {other && (
                  <span className={styles.snippet} data-testid="blog-search-snippet">
                    <span className={styles.source}>{text(other.source)}</span>
                    <Marked snippet={other} />
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ol>
      {state.loading && (
        <div className={blogStyles.status}>
          <Spinner size="medium" srText={t('common.loading')} />
        </div>
      )}
      {state.error && (
        <p className={blogStyles.empty} role="alert">
          {state.error}
        </p>
      )}
      {!state.loading && !state.error && state.items.length === 0 && (
        <p className={blogStyles.empty} data-testid="blog-search-none">
          {text('none', { q: query })}
        </p>
      )}
      {!state.loading && state.next && (
        <div className={blogStyles.status}>
          <Button onClick={() => void load(state.next, state.items)}>{text('more')}</Button>
        </div>
      )}
    </section>
  );
}
