import { Button } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import { useT } from '../app/i18n';
import styles from './Pager.module.css';

/** Server-side paging: "1–50 / 62" and previous/next plus page numbers. */
export function Pager({
  offset,
  limit,
  total,
  onOffset,
  labels,
  compact,
}: {
  offset: number;
  limit: number;
  total: number;
  onOffset(offset: number): void;
  labels: {
    nav: string;
    prev: string;
    next: string;
    range(from: number, to: number, total: number): string;
    page(n: number): string;
  };
  compact?: boolean;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const current = Math.floor(offset / limit);
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  const shown: (number | '…')[] = [];
  for (let i = 0; i < pages; i++) {
    if (i === 0 || i === pages - 1 || Math.abs(i - current) <= 1) shown.push(i);
    else if (shown[shown.length - 1] !== '…') shown.push('…');
  }
  return (
    <nav className={styles.pager} aria-label={labels.nav}>
      {/* Nothing matched: the table says so ("0〜0 of 0" would only repeat it). */}
      {total > 0 && (
        <span className={styles.range} data-testid="pager-range">
          {labels.range(from, to, total)}
        </span>
      )}
      {pages > 1 && (
        <span className={styles.buttons}>
          <Button
            size="small"
            variant="invisible"
            leadingVisual={ChevronLeftIcon}
            disabled={current === 0}
            onClick={() => onOffset((current - 1) * limit)}
          >
            {labels.prev}
          </Button>
          {!compact &&
            shown.map((p, i) =>
              p === '…' ? (
                <span key={`e${i}`} className={styles.ellipsis}>
                  …
                </span>
              ) : (
                <Button
                  key={p}
                  size="small"
                  variant="invisible"
                  className={p === current ? styles.current : undefined}
                  aria-current={p === current ? 'page' : undefined}
                  aria-label={labels.page(p + 1)}
                  onClick={() => onOffset(p * limit)}
                >
                  {p + 1}
                </Button>
              ),
            )}
          <Button
            size="small"
            variant="invisible"
            trailingVisual={ChevronRightIcon}
            disabled={current >= pages - 1}
            onClick={() => onOffset((current + 1) * limit)}
          >
            {labels.next}
          </Button>
        </span>
      )}
    </nav>
  );
}

/** The pager's labels in the current language. */
export function usePagerLabels() {
  const t = useT();
  return {
    nav: t('grid.pager'),
    prev: t('grid.prev'),
    next: t('grid.next'),
    range: (from: number, to: number, total: number) => t('grid.range', { from, to, total }),
    page: (n: number) => t('grid.page', { n }),
  };
}
