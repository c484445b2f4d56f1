import { useCatalog } from '../../../app/i18n';
import { STATS } from './statistics.i18n';
import type { BlogStatisticsQuery } from '../../../gql/graphql';
import styles from './statistics.module.css';

type Category = BlogStatisticsQuery['blogStatistics']['byCategory'][number];

/** Each category's share of the period's views and posts, as bars in its colour (the table below has the numbers too). */
export function CategoryShare({ categories }: { categories: Category[] }) {
  const ts = useCatalog(STATS);
  const views = categories.reduce((n, c) => n + c.views, 0);
  const shown = categories.filter((c) => c.views > 0 || c.totalPosts > 0);
  if (!shown.length) return null;
  return (
    <ul className={styles.share} aria-label={ts('shareLabel')} data-testid="stats-share">
      {shown.map((c) => {
        const share = views ? c.views / views : 0;
        return (
          <li key={c.categoryId}>
            <span className={styles.shareName}>{c.categoryName}</span>
            <span className={styles.shareTrack} aria-hidden="true">
              <span className={styles.shareBar} style={{ width: `${Math.max(share * 100, share > 0 ? 1 : 0)}%`, background: c.color }} />
            </span>
            <span className={styles.shareValue}>{ts('shareValue', { pct: Math.round(share * 100), views: c.views, posts: c.totalPosts })}</span>
          </li>
        );
      })}
    </ul>
  );
}
