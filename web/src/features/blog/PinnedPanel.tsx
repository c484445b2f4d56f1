import { useId, useState } from 'react';
import { ChevronDownIcon, ChevronRightIcon, MegaphoneIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { displayDate } from '../../components/master-options';
import { CategoryLabel, type BlogCardPost } from './BlogCard';
import { ReadingBar } from './reading';
import styles from './blog.module.css';

/**
 * 速報: the posts pinned today, in a red panel that folds away (hidden when nothing is pinned). A
 * post asking for confirmation (必読) is confirmed in its row, so the cards need not list it again:
 * they do only when 一覧にも表示 is ticked.
 */
export function PinnedPanel({
  posts,
  onOpen,
  onChanged,
  inFeed,
  onInFeed,
}: {
  posts: readonly BlogCardPost[];
  onOpen(p: BlogCardPost): void;
  onChanged(p: BlogCardPost): void;
  /** The pinned posts are listed among the cards too. */
  inFeed: boolean;
  onInFeed(on: boolean): void;
}) {
  const t = useT();
  const [open, setOpen] = useState(true);
  const inFeedId = useId();
  if (posts.length === 0) return null;
  return (
    <section className={styles.pinned} data-testid="blog-pinned" aria-label={t('blog.pinned')}>
      <div className={styles.pinnedHead}>
        <button type="button" className={styles.pinnedToggle} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? <ChevronDownIcon size={16} /> : <ChevronRightIcon size={16} />}
          <MegaphoneIcon size={16} />
          <span>{t('blog.pinned')}</span>
          <span className={styles.pinnedCount}>{t('blog.pinnedCount', { n: posts.length })}</span>
        </button>
        <label className={styles.pinnedInFeed} htmlFor={inFeedId}>
          <input
            id={inFeedId}
            type="checkbox"
            checked={inFeed}
            onChange={(e) => onInFeed(e.target.checked)}
            data-testid="blog-pinned-in-feed"
          />
          {t('blog.pinnedInFeed')}
        </label>
      </div>
      {open && (
        <ul className={styles.pinnedList}>
          {posts.map((p) => (
            <li key={p.id} className={styles.pinnedRow} data-testid="blog-pinned-row">
              <button
                type="button"
                className={styles.pinnedItem}
                onClick={() => onOpen(p)}
                data-testid="blog-pinned-item"
              >
                <span className={styles.pinnedTitle}>{p.title}</span>
                <CategoryLabel category={p.category} />
                <span className={styles.pinnedDate}>{displayDate(p.publishStart)}</span>
              </button>
              <ReadingBar post={p} onChanged={onChanged} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
