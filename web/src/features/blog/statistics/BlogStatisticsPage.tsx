import { useEffect, useMemo, useState } from 'react';
import { useDebounced } from '../../../app/use-debounced';
import { useQuery } from '@apollo/client/react';
import { Button, Checkbox, TextInput } from '@primer/react';
import { InfoIcon } from '@primer/octicons-react';
import { tokyoToday } from '@intranet/schema/calendar/tokyo';
import { AREAS, type PageDef } from '../../../app/areas';
import { useCatalog, useDocumentTitle, useT } from '../../../app/i18n';
import { STATS } from './statistics.i18n';
import { useNarrow } from '../../../app/use-narrow';
import { ListTable, type ListColumn } from '../../../components/ListTable';
import { Page } from '../../../components/Page';
import { PageHeading } from '../../../components/PageHeading';
import { ToastHost, toast } from '../../../components/Toast';
import { displayDate } from '../../../components/master-options';
import type { BlogStatisticsQuery, BlogStatisticsQueryVariables } from '../../../gql/graphql';
import { ExportButton } from '../../../components/ExportButton';
import { CategoryShare } from './CategoryShare';
import { EmployeeStatsTable, NO_EMPLOYEE_FILTER, topOf } from './EmployeeStatsTable';
import { StatisticsChart } from './StatisticsChart';
import { TopPosts } from './TopPosts';
import { BlogStatisticsQuery as Query } from './operations';
import styles from './statistics.module.css';

type Stats = BlogStatisticsQuery['blogStatistics'];
type Post = Stats['posts'][number];
const FIGURES = ['posts', 'likes', 'views', 'comments'] as const;

/**
 * /blog/statistics (every signed-in role): 月別ブログ統計 for a month (default this month) or a long
 * period (default this year) — headline figures against the period before, the trend, by
 * category, the most liked, viewed and commented, per post and per employee; the ⓘ panel says how
 * each number is counted. Only posts the viewer may see are counted (the server's rule).
 */
export default function BlogStatisticsPage({ def }: { def: PageDef }) {
  const t = useT();
  const ts = useCatalog(STATS);
  const narrow = useNarrow() || !!def.mobile;
  const title = t('page.blogStatistics');
  useDocumentTitle(title);
  const today = useMemo(() => tokyoToday(), []);
  const [month, setMonth] = useState(today.slice(0, 7));
  const [long, setLong] = useState(false);
  const [start, setStart] = useState(`${today.slice(0, 4)}-01-01`);
  const [end, setEnd] = useState(`${today.slice(0, 4)}-12-31`);
  const [range, setRange] = useState<{ startDate: string; endDate: string } | null>(null);
  const [missing, setMissing] = useState(false);
  const [showDefs, setShowDefs] = useState(false);
  const [people, setPeople] = useState(NO_EMPLOYEE_FILTER);

  // Typed filters reach the server after a pause (each change is a new report).
  const typed = useDebounced(people, 300);
  const period: BlogStatisticsQueryVariables =
    long && range
      ? range
      : /^\d{4}-\d{2}$/.test(month)
        ? { year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) }
        : {};
  const variables: BlogStatisticsQueryVariables = {
    ...period,
    employeesFirst: topOf(typed),
    employeeName: typed.name.trim() || undefined,
    employeeDepartment: typed.department.trim() || undefined,
    employeeCategoryId: typed.category ? Number(typed.category) : undefined,
  };
  const { data, previousData, loading, error } = useQuery(Query, {
    variables,
    skip: long && !range,
    fetchPolicy: 'cache-and-network',
  });
  useEffect(() => {
    if (error) toast.error(ts('fetchFailed'));
  }, [error, ts]);
  const stats = (data ?? previousData)?.blogStatistics;

  const aggregate = () => {
    if (!start || !end) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setRange({ startDate: start, endDate: end });
  };

  const postColumns = (count: (p: Post) => number, header: string): ListColumn<Post>[] => [
    { key: 'title', header: ts('title'), render: (p) => p.title },
    { key: 'n', header, render: count, align: 'end', nowrap: true },
  ];

  return (
    <Page testId="blog-statistics-page">
      <ToastHost closeLabel={t('rec.close')} />
      <PageHeading
        section={t(AREAS.blogStatistics.section)}
        title={title}
        description={narrow ? undefined : t(AREAS.blogStatistics.description)}
      />
      <div className={styles.controls}>
        {!long && (
          <label className={styles.field}>
            {ts('month')}
            <TextInput
              type="month"
              value={month}
              onChange={(e) => setMonth(e.target.value)}
              aria-label={ts('month')}
              data-testid="stats-month"
            />
          </label>
        )}
        <label className={styles.check}>
          <Checkbox checked={long} onChange={(e) => setLong(e.target.checked)} data-testid="stats-long" />
          {ts('longPeriod')}
        </label>
        {long && (
          <>
            <label className={styles.field}>
              {ts('start')}
              <TextInput
                type="date"
                value={start}
                onChange={(e) => setStart(e.target.value)}
                data-testid="stats-start"
              />
            </label>
            <label className={styles.field}>
              {ts('end')}
              <TextInput type="date" value={end} onChange={(e) => setEnd(e.target.value)} data-testid="stats-end" />
            </label>
            <Button variant="primary" onClick={aggregate} data-testid="stats-aggregate">
              {ts('aggregate')}
            </Button>
          </>
        )}
        {stats && (
          <ExportButton
            path="/api/blogs/statistics/export"
            params={{
              ...(stats.mode === 'RANGE'
                ? { start_date: stats.startDate, end_date: stats.endDate }
                : { year: stats.startDate.slice(0, 4), month: String(Number(stats.startDate.slice(5, 7))) }),
              name: people.name.trim(),
              department: people.department.trim(),
              category_id: people.category,
              top: String(topOf(people)),
            }}
            fallbackName="blog_statistics.xlsx"
          />
        )}
        <Button
          variant="invisible"
          leadingVisual={InfoIcon}
          onClick={() => setShowDefs((v) => !v)}
          aria-expanded={showDefs}
          data-testid="stats-definitions-toggle"
        >
          {ts('definitions')}
        </Button>
      </div>
      {missing && (
        <p className={styles.error} role="alert">
          {ts('missingDates')}
        </p>
      )}
      {showDefs && (
        <section className={styles.definitions} data-testid="stats-definitions" aria-label={ts('definitions')}>
          <ul>
            {(['view', 'like', 'comment', 'post', 'tokyo', 'rank', 'visibility'] as const).map((k) => (
              <li key={k}>{ts(`def.${k}`)}</li>
            ))}
          </ul>
        </section>
      )}
      {stats && (
        <div aria-busy={loading} data-testid="stats-body">
          <p className={styles.muted}>
            {ts('period', { start: displayDate(stats.startDate), end: displayDate(stats.endDate) })} ・{' '}
            {ts('previous', { start: displayDate(stats.previousStartDate), end: displayDate(stats.previousEndDate) })}
          </p>
          <div className={styles.cards}>
            {FIGURES.map((k) => {
              const diff = stats.totals[k] - stats.previousTotals[k];
              return (
                <div key={k} className={styles.card} data-testid={`stats-total-${k}`}>
                  <div className={styles.cardLabel}>{ts(`${k}`)}</div>
                  <div className={styles.cardValue}>{stats.totals[k].toLocaleString()}</div>
                  <div
                    className={diff > 0 ? styles.up : diff < 0 ? styles.down : styles.same}
                    title={diff > 0 ? ts('up', { n: diff }) : diff < 0 ? ts('down', { n: -diff }) : ts('same')}
                  >
                    {diff > 0 ? `▲${diff}` : diff < 0 ? `▼${-diff}` : '±0'}
                  </div>
                </div>
              );
            })}
          </div>
          <h2 className={styles.section}>{ts('chart')}</h2>
          <StatisticsChart series={stats.series} step={stats.step} narrow={narrow} />

          <h2 className={styles.section}>{ts('share')}</h2>
          <CategoryShare categories={stats.byCategory} />

          {stats.posts.some((p) => p.likeCount + p.viewCount + p.commentCount > 0) && (
            <>
              <h2 className={styles.section}>{ts('topPosts')}</h2>
              <TopPosts stats={stats} />
            </>
          )}

          <h2 className={styles.section}>{ts('byCategory')}</h2>
          <ListTable
            label={ts('byCategory')}
            testId="stats-by-category"
            scrollable
            rows={stats.byCategory}
            rowKey={(c) => c.categoryId}
            emptyText={ts('empty')}
            columns={[
              {
                key: 'name',
                header: ts('category'),
                render: (c) => (
                  <span>
                    <span className={styles.dot} style={{ background: c.color }} aria-hidden="true" />
                    {c.categoryName}
                  </span>
                ),
                nowrap: true,
              },
              { key: 'total', header: ts('totalPosts'), render: (c) => c.totalPosts, align: 'end', nowrap: true },
              ...[0, 1, 2, 3, 4].slice(0, narrow ? 1 : 5).map((i) => ({
                key: `top${i}`,
                header: ts('rank', { n: i + 1 }),
                render: (c: Stats['byCategory'][number]) => c.top[i]?.title ?? '—',
              })),
            ]}
          />

          <div className={styles.tables}>
            {(
              [
                ['mostLiked', stats.mostLiked, (p: Post) => p.likeCount, 'likes', 'stats-most-liked'],
                ['mostViewed', stats.mostViewed, (p: Post) => p.viewCount, 'views', 'stats-most-viewed'],
                ['mostCommented', stats.mostCommented, (p: Post) => p.commentCount, 'comments', 'stats-most-commented'],
              ] as const
            ).map(([heading, ids, count, header, testId]) => (
              <section key={heading}>
                <h2 className={styles.section}>{ts(heading)}</h2>
                <ListTable
                  label={ts(heading)}
                  testId={testId}
                  rows={ids}
                  rowKey={(p) => p.postId}
                  emptyText={ts('empty')}
                  columns={postColumns(count, ts(header))}
                />
              </section>
            ))}
          </div>

          <h2 className={styles.section}>{ts('perPost')}</h2>
          {stats.postCount > stats.posts.length && (
            <p className={styles.muted}>{ts('postCount', { shown: stats.posts.length, count: stats.postCount })}</p>
          )}
          <ListTable
            label={ts('perPost')}
            testId="stats-posts"
            scrollable
            rows={stats.posts}
            rowKey={(p) => p.postId}
            emptyText={ts('empty')}
            columns={[
              { key: 'title', header: ts('title'), render: (p) => p.title },
              ...(narrow
                ? []
                : [
                    {
                      key: 'category',
                      header: ts('category'),
                      render: (p: Post) => p.categoryName ?? '—',
                      nowrap: true,
                    },
                    { key: 'author', header: ts('author'), render: (p: Post) => p.authorName, nowrap: true },
                    {
                      key: 'start',
                      header: ts('publishStart'),
                      render: (p: Post) => displayDate(p.publishStart),
                      nowrap: true,
                    },
                  ]),
              { key: 'likes', header: ts('likes'), render: (p) => p.likeCount, align: 'end', nowrap: true },
              { key: 'views', header: ts('views'), render: (p) => p.viewCount, align: 'end', nowrap: true },
              { key: 'comments', header: ts('comments'), render: (p) => p.commentCount, align: 'end', nowrap: true },
              {
                key: 'reach',
                header: ts('reach'),
                render: (p) => (p.reach === null ? '—' : `${Math.round(p.reach * 100)}%`),
                align: 'end',
                nowrap: true,
              },
            ]}
          />

          <h2 className={styles.section}>{ts('perEmployee')}</h2>
          <EmployeeStatsTable stats={stats} narrow={narrow} filter={people} onFilter={setPeople} />
        </div>
      )}
    </Page>
  );
}
