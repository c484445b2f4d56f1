import type { BlogStatisticsQuery } from '../../../gql/graphql';
import { useCatalog } from '../../../app/i18n';
import { STATS } from './statistics.i18n';
import styles from './statistics.module.css';

type Point = BlogStatisticsQuery['blogStatistics']['series'][number];
const SERIES = [
  { key: 'views', color: 'var(--data-blue-color-emphasis, #0969da)' },
  { key: 'likes', color: 'var(--data-pink-color-emphasis, #bf3989)' },
  { key: 'comments', color: 'var(--data-green-color-emphasis, #1a7f37)' },
  { key: 'posts', color: 'var(--data-orange-color-emphasis, #bc4c00)' },
] as const;

const H = 200;
const PAD = { left: 36, right: 8, top: 8, bottom: 22 };

/**
 * The period's trend as an SVG line chart (no chart library: the page's JS stays small). Each step's
 * figures are in its tooltip; the tables below are the accessible record of the same numbers.
 */
export function StatisticsChart({ series, step, narrow }: { series: Point[]; step: string; narrow: boolean }) {
  const ts = useCatalog(STATS);
  // The drawing's width in its own units: about the screen's, so its 11 px labels stay 11 px.
  const W = narrow ? 360 : 720;
  const max = Math.max(1, ...series.flatMap((p) => SERIES.map((s) => p[s.key])));
  const x = (i: number) => PAD.left + (series.length <= 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (series.length - 1));
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max);
  const label = (d: string) => (step === 'DAY' ? d.slice(8, 10) : d.slice(2, 7).replace('-', '/'));
  const every = Math.max(1, Math.ceil(series.length / (narrow ? 6 : 12)));
  return (
    <figure className={styles.chart}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={ts('chartLabel', { step: ts(`step.${step === 'DAY' ? 'DAY' : 'MONTH'}`) })}
        data-testid="stats-chart"
      >
        {[...new Set([0, Math.round(max / 2), max])].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className={styles.grid} />
            <text x={PAD.left - 4} y={y(v) + 4} textAnchor="end" className={styles.axis}>
              {v}
            </text>
          </g>
        ))}
        {series.map((p, i) =>
          i % every === 0 ? (
            <text key={p.date} x={x(i)} y={H - 6} textAnchor="middle" className={styles.axis}>
              {label(p.date)}
            </text>
          ) : null,
        )}
        {SERIES.map((s) => (
          <polyline
            key={s.key}
            fill="none"
            stroke={s.color}
            strokeWidth={2}
            points={series.map((p, i) => `${x(i)},${y(p[s.key])}`).join(' ')}
          />
        ))}
        {series.map((p, i) => (
          <rect
            key={p.date}
            x={x(i) - 4}
            y={PAD.top}
            width={8}
            height={H - PAD.top - PAD.bottom}
            className={styles.hit}
          >
            <title>{`${p.date}  ${SERIES.map((s) => `${ts(`${s.key}`)} ${p[s.key]}`).join(' / ')}`}</title>
          </rect>
        ))}
      </svg>
      <figcaption className={styles.legend}>
        {SERIES.map((s) => (
          <span key={s.key}>
            <span className={styles.swatch} style={{ background: s.color }} aria-hidden="true" />
            {ts(`${s.key}`)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
