import { useCatalog } from '../../../app/i18n';
import { STATS } from './statistics.i18n';
import type { BlogStatisticsQuery } from '../../../gql/graphql';
import { BarList } from './BarList';

type Stats = BlogStatisticsQuery['blogStatistics'];

/** How many posts the chart shows: the head of the per-post table's ranking. */
const SHOWN = 10;

/**
 * The period's top posts by the tables' ranking (likes, then views, comments): each a bar of its
 * likes against the first's, in its category's colour, with its figures (the per-post table below
 * is the accessible whole).
 */
export function TopPosts({ stats }: { stats: Stats }) {
  const ts = useCatalog(STATS);
  const top = stats.posts.slice(0, SHOWN).filter((p) => p.likeCount + p.viewCount + p.commentCount > 0);
  const most = Math.max(1, ...top.map((p) => p.likeCount));
  const colour = new Map(stats.byCategory.map((c) => [c.categoryName, c.color]));
  const bars = top.map((p) => ({
    key: p.postId,
    name: p.title,
    share: p.likeCount / most,
    color: (p.categoryName && colour.get(p.categoryName)) || 'var(--bgColor-accent-emphasis, #0969da)',
    text: ts('topPostValue', { likes: p.likeCount, views: p.viewCount, comments: p.commentCount }),
  }));
  return <BarList label={ts('topPostsLabel')} testId="stats-top-posts" bars={bars} />;
}
