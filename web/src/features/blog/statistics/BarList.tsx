import styles from './statistics.module.css';

export interface Bar {
  key: string | number;
  name: string;
  /** The bar's length, 0 to 1. */
  share: number;
  color: string;
  /** The figures beside it (the bar itself is hidden from screen readers). */
  text: string;
}

/** A list of labelled horizontal bars with their figures: the page's small charts (category share, top posts). */
export function BarList({ label, testId, bars }: { label: string; testId: string; bars: Bar[] }) {
  if (!bars.length) return null;
  return (
    <ul className={styles.share} aria-label={label} data-testid={testId}>
      {bars.map((b) => (
        <li key={b.key}>
          <span className={styles.shareName} title={b.name}>
            {b.name}
          </span>
          <span className={styles.shareTrack} aria-hidden="true">
            <span
              className={styles.shareBar}
              style={{ width: `${Math.max(b.share * 100, b.share > 0 ? 1 : 0)}%`, background: b.color }}
            />
          </span>
          <span className={styles.shareValue}>{b.text}</span>
        </li>
      ))}
    </ul>
  );
}
