import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../../platform/sql.js';

/**
 * Who sees what in the statistics, over the rollups. A report covers the posts its viewer may read
 * today (BlogPostReads.statisticsRule). The coarse rollups sum per category the post counted in (a
 * draft in none: statistics.rollup.ts), so a report sums the categories the viewer reads, takes out
 * the posts there the viewer may not see (`hidden`) and adds the viewer's own posts they may see in
 * categories they do not read (`extra`). Both sets are small, read once per report from indexes
 * alone, and passed to every statement as arrays.
 *
 * `hidden` restates the rule for a published post of a category the viewer reads: it is hidden when
 * its publish start is still to come, or, for everyone but 管理者 and システム管理者, when its window
 * has ended and it is not the viewer's own. statistics.spans.test.ts holds the sums made this way
 * equal to the rule joined row by row, for every kind of viewer.
 */

/** The visibility rule over `p` (blog_post) with its parameters, and what it is made of. */
export interface StatisticsRule {
  sql: string;
  params: unknown[];
  today: string;
  /** The categories the viewer reads (管理者 and システム管理者: all). */
  categoryIds: number[];
  /** The categories the viewer does not read, and 0 (the rollups' category of a draft). */
  otherCategoryIds: number[];
  /** How many categories there are. */
  categoryCount: number;
  viewerId: number;
  /** Whether publish windows apply (everyone but 管理者 and システム管理者). */
  windowed: boolean;
}

/** A rule with its two sets, as bound array literals. */
export interface StatisticsViewer extends StatisticsRule {
  hidden: string;
  extra: string;
}

export interface Subset {
  sql: string;
  params: unknown[];
}

/** The categories the viewer reads, and those they do not, as bound array literals for the rollups' own category column. */
export const readableArray = (rule: StatisticsRule) => `{${rule.categoryIds.join(',')}}`;
export const otherArray = (rule: StatisticsRule) => `{${rule.otherCategoryIds.join(',')}}`;

/** The rule and its hidden and extra posts. */
export async function statisticsViewer(em: EntityManager, rule: StatisticsRule): Promise<StatisticsViewer> {
  const inRead = `not p.is_draft and p.category_id = any(?::int[])`;
  const hidden = [
    {
      sql: `select p.id from blog_post p where ${inRead} and p.publish_start > ?::date`,
      params: [readableArray(rule), rule.today],
    },
    ...(rule.windowed
      ? [
          {
            sql: `select p.id from blog_post p where ${inRead} and p.publish_end < ?::date and p.author_id <> ?`,
            params: [readableArray(rule), rule.today, rule.viewerId],
          },
        ]
      : []),
  ];
  const [row] = await execBound<{ hidden: number[]; extra: number[] }>(
    em,
    `select array(${hidden.map((h) => h.sql).join(' union ')}) as hidden,
            array(select p.id from blog_post p where p.author_id = ? and not coalesce(p.category_id = any(?::int[]), false) and ${rule.sql}) as extra`,
    [...hidden.flatMap((h) => h.params), rule.viewerId, readableArray(rule), ...rule.params],
  );
  return { ...rule, hidden: `{${row!.hidden.join(',')}}`, extra: `{${row!.extra.join(',')}}` };
}
