import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation } from '@apollo/client/react';
import { Button, Dialog, SegmentedControl, Spinner } from '@primer/react';
import { FilterIcon, PlusIcon } from '@primer/octicons-react';
import { AREAS, type PageDef } from '../../app/areas';
import { useSession } from '../../app/auth/session';
import { useDocumentTitle, useT } from '../../app/i18n';
import { useNarrow } from '../../app/use-narrow';
import { useUrlFilters } from '../../components/ListFrame';
import { Page } from '../../components/Page';
import { PageHeading } from '../../components/PageHeading';
import { toast, ToastHost } from '../../components/Toast';
import type { BlogFeedFilter } from '../../gql/graphql';
import { BlogCard, type BlogCardPost } from './BlogCard';
import { BlogDetailDialog } from './BlogDetailDialog';
import { BlogFilters, FILTER_KEYS, LayoutSelect, type FilterValues } from './BlogFilters';
import { useSingleOrDoubleClick, useStoredLayout, useStoredPinnedInFeed } from './card-helpers';
import { applyToShown } from './live-feed';
import { useBlogLive } from './live';
import { useBlogText } from './engagement';
import { MarkBlogPostSeenMutation } from './operations';
import { PinnedPanel } from './PinnedPanel';
import { useBlogFeed } from './use-blog-feed';
import { useLinkedPost } from './use-linked-post';
import { BlogSearchBox } from './search/BlogSearchBox';
import styles from './blog.module.css';

// The comments dialog (its composer, emoji picker and preview) is its own chunk, fetched on the first opening.
const CommentsDialog = lazy(() => import('./comments/CommentsDialog'));
/** Search results load with their first search: the feed alone never fetches them. */
const BlogSearchResults = lazy(() => import('./search/BlogSearchResults'));

const KEYS = [...FILTER_KEYS, 'scope', 'q'] as const;
const filterCountOf = (values: Record<(typeof FILTER_KEYS)[number], string>) =>
  FILTER_KEYS.filter((k) => values[k] !== '').length;
/** すべて / マイブログ / 保存したブログ, as the URL's scope says them ('' is すべて). */
const SCOPES = [
  { url: '', api: 'ALL' },
  { url: 'mine', api: 'MINE' },
  { url: 'saved', api: 'SAVED' },
] as const;
const toId = (v: string) => (v ? Number(v) : undefined);

/**
 * ブログ一覧: /blog (desktop: filter bar, layout of 2–4 cards per row) and /blog/sp (one column,
 * filters in a dialog). Both: the 速報 panel, cards, もっと見る on the server's cursor.
 */
export default function BlogFeedPage({ def }: { def: PageDef }) {
  const t = useT();
  const text = useBlogText();
  const navigate = useNavigate();
  const { user } = useSession();
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.blog');
  useDocumentTitle(title);
  const f = useUrlFilters(KEYS);
  const [layout, setLayout] = useStoredLayout();
  const [filterOpen, setFilterOpen] = useState(false);
  const [shown, setShown] = useState<BlogCardPost | null>(null);
  // The post whose comments are open, and how many live COMMENTS_CHANGED it has had since (the dialog reads its thread again on each).
  const [commentsOf, setCommentsOf] = useState<BlogCardPost | null>(null);
  const [commentsRevision, setCommentsRevision] = useState(0);
  const commentsOfId = useRef<number | null>(null);
  commentsOfId.current = commentsOf?.id ?? null;

  const scopeIndex = Math.max(
    0,
    SCOPES.findIndex((s) => s.url === f.values.scope),
  );
  const scope = SCOPES[scopeIndex]!.api;
  // 速報 above the unfiltered feed only: a filtered feed lists the pinned posts that match first among its cards.
  const withPinned = filterCountOf(f.values) === 0;
  // A post in 速報 is not listed again among the cards of すべて (the server leaves them out), unless
  // asked; マイブログ and 保存したブログ are the viewer's own lists and list every post of theirs.
  const [pinnedInFeed, setPinnedInFeed] = useStoredPinnedInFeed();
  const hidePinned = withPinned && scope === 'ALL' && !pinnedInFeed;
  const filter: BlogFeedFilter = {
    scope,
    title: f.values.title || undefined,
    tagId: toId(f.values.tag),
    categoryId: toId(f.values.category),
    departmentId: toId(f.values.department),
    withoutPinned: hidePinned,
  };
  // The cards and 速報 (which the feed's first page brings), kept by live changes.
  const feed = useBlogFeed(filter);
  const pinnedPosts = feed.pinned ?? [];
  const cards = feed.items;
  // Live: the cards, 速報 and an open dialog follow every change the viewer may see, without reload
  // (the server says whether a post is on the feed as filtered).
  useBlogLive((change) => {
    if (change.kind === 'ACCESS_CHANGED') {
      feed.reload();
      return;
    }
    feed.apply(change);
    setShown((p) => p && applyToShown(p, change));
    setCommentsOf((p) => p && applyToShown(p, change));
    if (change.kind === 'COMMENTS_CHANGED' && change.postId === commentsOfId.current) setCommentsRevision((n) => n + 1);
  }, filter);
  useEffect(() => {
    if (feed.error) toast.error(t('blog.fetchFailed'));
  }, [feed.error, t]);

  // The viewer's own like, save or visit: every place that shows the post takes it as it now is.
  const changed = (post: BlogCardPost) => {
    feed.replace(post);
    setShown((p) => (p?.id === post.id ? post : p));
    setCommentsOf((p) => (p?.id === post.id ? post : p));
  };
  const openComments = (p: BlogCardPost) => {
    setCommentsRevision(0);
    setCommentsOf(p);
  };
  // Opening a post is seeing it: marked once (New! goes), never un-seen. A failed mark leaves New!
  // (the next opening tries again).
  const [markSeen] = useMutation(MarkBlogPostSeenMutation);
  const marking = useRef(new Set<number>());
  const open = (p: BlogCardPost) => {
    setShown(p);
    if (!p.isNew || marking.current.has(p.id)) return;
    marking.current.add(p.id);
    markSeen({ variables: { id: p.id } })
      .then(({ data }) => data && changed(data.markBlogPostSeen))
      .catch(() => undefined)
      .finally(() => marking.current.delete(p.id));
  };

  // A notification's link: the post it is about, in the dialog.
  useLinkedPost(open, openComments, () => toast.error(text('linkedMissing')));

  const base = narrow ? '/blog/sp' : '/blog';
  // A search replaces the feed (速報, filters and cards) with its ranked results until cleared.
  const searching = f.values.q.trim() !== '';
  // Words the box refused: the results of the previous ones are not shown under them.
  const [refusedQuery, setRefusedQuery] = useState(false);
  const clicks = useSingleOrDoubleClick<BlogCardPost>(open, (p) => navigate(`/blog/${p.id}`));
  // On a phone a tap has no double: the author goes to the edit page, anyone else reads the dialog.
  const tap = (p: BlogCardPost) => (p.author.id === user.id ? navigate(`/blog/sp/${p.id}`) : open(p));
  const filterCount = filterCountOf(f.values);
  const search = (v: FilterValues) => {
    for (const k of FILTER_KEYS) f.set(k, v[k]);
    setFilterOpen(false);
  };
  const clear = () => {
    for (const k of FILTER_KEYS) f.set(k, '');
  };
  const filters = <BlogFilters values={f.values} onSearch={search} onClear={clear} active={filterCount} />;
  const create = (
    <Button variant="primary" leadingVisual={PlusIcon} onClick={() => navigate(`${base}/new`)} className={styles.push}>
      {t('blog.create')}
    </Button>
  );

  return (
    <Page testId="blog-page">
      <ToastHost closeLabel={t('rec.close')} />
      <PageHeading
        section={t(AREAS.blog.section)}
        title={title}
        description={narrow ? undefined : t(AREAS.blog.description)}
      />
      <div className={styles.toolbar}>
        <BlogSearchBox
          value={f.values.q}
          onSearch={(q) => {
            setRefusedQuery(false);
            f.set('q', q);
          }}
          onRefused={() => setRefusedQuery(true)}
        />
        {searching ? null : narrow ? (
          <div className={styles.toolbarRow}>
            <Button leadingVisual={FilterIcon} onClick={() => setFilterOpen(true)} count={filterCount || undefined}>
              {t('blog.filterButton')}
            </Button>
            {create}
          </div>
        ) : (
          filters
        )}
        {!searching && (
          <div className={styles.toolbarRow}>
            <SegmentedControl
              aria-label={t('blog.scope')}
              size={narrow ? 'small' : 'medium'}
              onChange={(i) => f.set('scope', SCOPES[i]?.url ?? '')}
            >
              <SegmentedControl.Button selected={scopeIndex === 0}>{t('blog.scope.all')}</SegmentedControl.Button>
              <SegmentedControl.Button selected={scopeIndex === 1}>{t('blog.scope.mine')}</SegmentedControl.Button>
              <SegmentedControl.Button selected={scopeIndex === 2}>{text('scopeSaved')}</SegmentedControl.Button>
            </SegmentedControl>
            {!narrow && <LayoutSelect value={layout} onChange={setLayout} />}
            {!narrow && create}
          </div>
        )}
      </div>
      {searching ? (
        <Suspense
          fallback={
            <div className={styles.status}>
              <Spinner size="medium" srText={t('common.loading')} />
            </div>
          }
        >
          {!refusedQuery && <BlogSearchResults query={f.values.q} onOpen={open} />}
        </Suspense>
      ) : (
        <>
          {withPinned && (
            <PinnedPanel
              posts={pinnedPosts}
              onOpen={open}
              onChanged={changed}
              inFeed={pinnedInFeed}
              onInFeed={setPinnedInFeed}
            />
          )}
          <div
            className={styles.grid}
            style={{ ['--blog-columns' as string]: narrow ? 1 : layout }}
            data-testid="blog-grid"
            data-columns={narrow ? 1 : layout}
          >
            {cards.map((p) => (
              <BlogCard
                key={p.id}
                post={p}
                onClick={narrow ? tap : clicks.onClick}
                onDoubleClick={narrow ? undefined : clicks.onDoubleClick}
                onChanged={changed}
                onComments={openComments}
              />
            ))}
          </div>
          {feed.loading && (
            <div className={styles.status}>
              <Spinner size="medium" srText={t('common.loading')} />
            </div>
          )}
          {!feed.loading && !feed.error && cards.length === 0 && !(hidePinned && pinnedPosts.length) && (
            <p className={styles.empty} data-testid="blog-empty">
              {filterCount
                ? t('blog.emptyFiltered')
                : scope === 'MINE'
                  ? t('blog.emptyMine')
                  : scope === 'SAVED'
                    ? text('emptySaved')
                    : t('blog.empty')}
            </p>
          )}
          {!feed.loading && feed.next && (
            <div className={styles.status}>
              <Button onClick={feed.loadMore}>{t('blog.more')}</Button>
            </div>
          )}
        </>
      )}
      {narrow && filterOpen && (
        <Dialog
          title={t('blog.filterButton')}
          onClose={() => setFilterOpen(false)}
          position={{ narrow: 'bottom', regular: 'center' }}
        >
          {filters}
        </Dialog>
      )}
      {shown && (
        <BlogDetailDialog post={shown} onClose={() => setShown(null)} onChanged={changed} onComments={openComments} />
      )}
      {commentsOf && (
        <Suspense fallback={null}>
          <CommentsDialog
            post={commentsOf}
            revision={commentsRevision}
            onClose={() => setCommentsOf(null)}
            onCount={(count) => changed({ ...commentsOf, commentCount: count })}
          />
        </Suspense>
      )}
    </Page>
  );
}
