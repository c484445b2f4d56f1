import { useContext, type ReactNode } from 'react';
import { Button, Checkbox, Spinner } from '@primer/react';
import { XIcon } from '@primer/octicons-react';
import { ListFiltersContext } from './ListFrame';
import styles from './ListTable.module.css';

export interface ListColumn<R> {
  key: string;
  header: string;
  render(row: R): ReactNode;
  /** CSS width (e.g. '6rem'). */
  width?: string;
  align?: 'start' | 'end' | 'center';
  /** Keep the cell on one line. */
  nowrap?: boolean;
}

export type RowTone = 'discarded' | 'broken' | 'retired' | 'blue' | 'red' | undefined;

/**
 * The generic list table of the master-data and device screens: Primer-styled, a row opens on
 * double-click (desktop) or a single click / Enter (narrow), optional row tones and checkbox selection.
 */
export function ListTable<R>({
  label,
  columns,
  rows,
  rowKey,
  onOpen,
  openOnClick,
  rowTone,
  rowTitle,
  loading,
  emptyText,
  selection,
  testId,
  scrollable,
}: {
  label: string;
  columns: ListColumn<R>[];
  rows: readonly R[];
  rowKey(row: R): string | number;
  onOpen?(row: R): void;
  /** Narrow layout: a single click opens. Otherwise a double click does. */
  openOnClick?: boolean;
  rowTone?(row: R): RowTone;
  rowTitle?(row: R): string | undefined;
  loading?: boolean;
  emptyText: string;
  selection?: {
    selected: ReadonlySet<string | number>;
    onChange(next: Set<string | number>): void;
    selectAllLabel: string;
    selectRowLabel(row: R): string;
  };
  testId?: string;
  /** The table may be wider than the screen: its scroll box is then a labelled region reachable by keyboard (WCAG 2.1.1). */
  scrollable?: boolean;
}) {
  const allKeys = rows.map(rowKey);
  const allSelected = !!selection && rows.length > 0 && allKeys.every((k) => selection.selected.has(k));
  const someSelected = !!selection && allKeys.some((k) => selection.selected.has(k));
  const toggle = (k: string | number) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(k)) next.delete(k);
    else next.add(k);
    selection.onChange(next);
  };
  return (
    <div
      className={styles.wrap}
      data-testid={testId}
      aria-busy={loading || undefined}
      {...(scrollable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      <table className={styles.table} aria-label={label}>
        <thead>
          <tr>
            {selection && (
              <th className={styles.check} scope="col">
                <Checkbox
                  aria-label={selection.selectAllLabel}
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  onChange={() => selection.onChange(allSelected ? new Set() : new Set(allKeys))}
                />
              </th>
            )}
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                style={{
                  width: c.width,
                  textAlign: c.align === 'end' ? 'right' : c.align === 'center' ? 'center' : undefined,
                }}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const k = rowKey(r);
            const tone = rowTone?.(r);
            return (
              <tr
                key={k}
                className={onOpen ? styles.openable : undefined}
                data-tone={tone}
                data-row-id={k}
                title={rowTitle?.(r)}
                tabIndex={onOpen ? 0 : undefined}
                aria-selected={selection ? selection.selected.has(k) : undefined}
                onClick={onOpen && openOnClick ? () => onOpen(r) : undefined}
                onDoubleClick={onOpen && !openOnClick ? () => onOpen(r) : undefined}
                onKeyDown={onOpen ? (e) => e.key === 'Enter' && e.target === e.currentTarget && onOpen(r) : undefined}
              >
                {selection && (
                  <td
                    className={styles.check}
                    onClick={(e) => e.stopPropagation()}
                    onDoubleClick={(e) => e.stopPropagation()}
                  >
                    <Checkbox
                      aria-label={selection.selectRowLabel(r)}
                      checked={selection.selected.has(k)}
                      onChange={() => toggle(k)}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td
                    key={c.key}
                    className={c.nowrap ? styles.nowrap : undefined}
                    style={{ textAlign: c.align === 'end' ? 'right' : c.align === 'center' ? 'center' : undefined }}
                  >
                    {c.render(r)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && !loading && <EmptyRows text={emptyText} />}
      {loading && (
        <div className={rows.length ? styles.overlay : styles.empty}>
          <Spinner size="small" srText={null} />
        </div>
      )}
    </div>
  );
}

/** No rows: say so, and when filters caused it, offer to clear them right there. */
function EmptyRows({ text }: { text: string }) {
  const filters = useContext(ListFiltersContext);
  return (
    <div className={styles.empty} data-testid="list-empty">
      <span>{text}</span>
      {filters && filters.active > 0 && (
        <Button size="small" leadingVisual={XIcon} onClick={filters.clear}>
          {filters.clearLabel}
        </Button>
      )}
    </div>
  );
}
