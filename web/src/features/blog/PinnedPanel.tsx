import { useState } from 'react';
import { ChevronDownIcon, ChevronRightIcon, MegaphoneIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { displayDate } from '../../components/master-options';
import { CategoryLabel, type BlogCardPost } from './BlogCard';
import styles from './blog.module.css';

/** 速報: the posts pinned today, in a red panel that folds away. Hidden when nothing is pinned. */
export function PinnedPanel({ posts, onOpen }: { posts: readonly BlogCardPost[]; onOpen(p: BlogCardPost): void }) {
  const t = useT();
  const [open, setOpen] = useState(true);
  if (posts.length === 0) return null;
  return (
    <section className={styles.pinned} data-testid="blog-pinned" aria-label={t('blog.pinned')}>
      <button type="button" className={styles.pinnedToggle} aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? <ChevronDownIcon size={16} /> : <ChevronRightIcon size={16} />}
        <MegaphoneIcon size={16} />
        <span>{t('blog.pinned')}</span>
        <span className={styles.pinnedCount}>{t('blog.pinnedCount', { n: posts.length })}</span>
      </button>
      {open && (
        <ul className={styles.pinnedList}>
          {posts.map((p) => (
            <li key={p.id}>
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
