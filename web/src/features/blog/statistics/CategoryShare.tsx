import { useCatalog } from '../../../app/i18n';
import { STATS } from './statistics.i18n';
import type { BlogStatisticsQuery } from '../../../gql/graphql';
import { BarList } from './BarList';

type Category = BlogStatisticsQuery['blogStatistics']['byCategory'][number];

/** Each category's share of the period's views and posts, as bars in its colour (the table below has the numbers too). */
export function CategoryShare({ categories }: { categories: Category[] }) {
  const ts = useCatalog(STATS);
  const views = categories.reduce((n, c) => n + c.views, 0);
  const bars = categories
    .filter((c) => c.views > 0 || c.totalPosts > 0)
    .map((c) => {
      const share = views ? c.views / views : 0;
      return {
        key: c.categoryId,
        name: c.categoryName,
        share,
        color: c.color,
        text: ts('shareValue', { pct: Math.round(share * 100), views: c.views, posts: c.totalPosts }),
      };
    });
  return <BarList label={ts('shareLabel')} testId="stats-share" bars={bars} />;
}
