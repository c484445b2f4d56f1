import { createContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, CounterLabel, Dialog, Select, TextInput } from '@primer/react';
import { FilterIcon, PlusIcon, SearchIcon, XIcon } from '@primer/octicons-react';
import { Page } from './Page';
import { PageHeading } from './PageHeading';
import { ToastHost } from './Toast';
import styles from './ListFrame.module.css';

/** List filters and the page offset kept in the URL (shareable, survive reload and back). */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const offset = Number(params.get('offset') ?? 0) || 0;
  // Each change starts from the URL as it is now, not from the params of the render that made the
  // callback: a text filter writes 300 ms after typing, and a filter picked in between must survive.
  const update = (change: (next: URLSearchParams) => void, replace: boolean) =>
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        change(next);
        return next;
      },
      { replace },
    );
  const set = (key: K, value: string) =>
    update((next) => {
      if (value) next.set(key, value);
      else next.delete(key);
      next.delete('offset');
    }, true);
  const setOffset = (o: number) =>
    update((next) => {
      if (o > 0) next.set('offset', String(o));
      else next.delete('offset');
    }, false);
  /** Clears every filter, the checkboxes included (as the staff list does). */
  const clear = () => setParams(new URLSearchParams(), { replace: true });
  const active = keys.filter((k) => values[k] !== '').length;
  return { values, set, offset, setOffset, clear, active };
}

/** A text filter that writes after a short pause in typing. */
export function TextFilter({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  placeholder?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const h = window.setTimeout(() => onChange(text.trim()), 300);
    return () => window.clearTimeout(h);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing restarts the pause; a new onChange or value each render must not
  }, [text]);
  // Closed within the pause (the narrow list's filter dialog closed right after typing): the typed
  // text still applies. Not when the page itself was left: the filter belongs to the page left behind.
  const pending = useRef({ text, value, onChange });
  pending.current = { text, value, onChange };
  useEffect(() => {
    const page = window.location.pathname;
    return () => {
      const p = pending.current;
      if (p.text !== p.value && window.location.pathname === page) p.onChange(p.text.trim());
    };
  }, []);
  return (
    <label className={styles.filter}>
      <span className={styles.filterLabel}>{label}</span>
      <TextInput
        leadingVisual={SearchIcon}
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        block
        aria-label={label}
      />
    </label>
  );
}

export function SelectFilter({
  label,
  value,
  onChange,
  options,
  allLabel,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  options: readonly { value: string; label: string }[];
  allLabel: string;
}) {
  return (
    <label className={styles.filter}>
      <span className={styles.filterLabel}>{label}</span>
      <Select block value={value} onChange={(e) => onChange(e.target.value)} aria-label={label}>
        <Select.Option value="">{allLabel}</Select.Option>
        {options.map((o) => (
          <Select.Option key={o.value} value={o.value}>
            {o.label}
          </Select.Option>
        ))}
      </Select>
    </label>
  );
}

export function CheckFilter({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(v: boolean): void;
}) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** A removable chip showing a filter that came from elsewhere (e.g. ?ms365=). */
export function FilterChip({ text, removeLabel, onRemove }: { text: string; removeLabel: string; onRemove(): void }) {
  return (
    <span className={styles.chip} data-testid="filter-chip">
      <FilterIcon size={12} />
      <span>{text}</span>
      <button type="button" aria-label={removeLabel} onClick={onRemove}>
        <XIcon size={12} />
      </button>
    </span>
  );
}

/**
 * The list's active filters, for the table's empty state: an empty result under filters offers to
 * clear them there, where the user is looking.
 */
export const ListFiltersContext = createContext<{ active: number; clear(): void; clearLabel: string } | null>(null);

export interface ListFrameLabels {
  clear: string;
  /** The empty state's button (defaults to `clear`). */
  clearFilters?: string;
  add: string;
  filter: string;
  filterTitle: string;
  close: string;
  closeToast: string;
}

/**
 * The frame of every list screen. Desktop: heading, a filter bar (filters, toggles, Clear, extra
 * actions, Add), chips, the table. Narrow: Add and a Filter button (the filters open in a dialog),
 * the toggles stay visible.
 */
export function ListFrame({
  testId,
  section,
  title,
  description,
  headingLabels,
  narrow,
  filters,
  toggles,
  activeFilters,
  onClear,
  actions,
  onAdd,
  chips,
  labels,
  children,
}: {
  testId: string;
  section?: string;
  title: string;
  description?: string;
  headingLabels?: ReactNode[];
  narrow: boolean;
  filters: ReactNode;
  toggles?: ReactNode;
  activeFilters: number;
  onClear(): void;
  actions?: ReactNode;
  onAdd?(): void;
  chips?: ReactNode;
  labels: ListFrameLabels;
  children: ReactNode;
}) {
  const [filterOpen, setFilterOpen] = useState(false);
  return (
    <Page testId={testId}>
      <ToastHost closeLabel={labels.closeToast} />
      <PageHeading
        section={section}
        title={title}
        description={narrow ? undefined : description}
        labels={headingLabels}
      />
      {narrow ? (
        <div className={styles.narrowBar}>
          <Button
            leadingVisual={FilterIcon}
            onClick={() => setFilterOpen(true)}
            trailingVisual={activeFilters ? () => <CounterLabel>{activeFilters}</CounterLabel> : undefined}
          >
            {labels.filter}
          </Button>
          {actions}
          {onAdd && (
            <Button variant="primary" leadingVisual={PlusIcon} onClick={onAdd} className={styles.push}>
              {labels.add}
            </Button>
          )}
          {toggles && <div className={styles.narrowToggles}>{toggles}</div>}
        </div>
      ) : (
        <div className={styles.bar} role="search">
          <div className={styles.filters}>{filters}</div>
          <div className={styles.barRow}>
            <div className={styles.toggles}>{toggles}</div>
            <div className={styles.actions}>
              <Button leadingVisual={XIcon} variant="invisible" onClick={onClear} disabled={activeFilters === 0}>
                {labels.clear}
              </Button>
              {actions}
              {onAdd && (
                <Button variant="primary" leadingVisual={PlusIcon} onClick={onAdd}>
                  {labels.add}
                </Button>
              )}
            </div>
          </div>
        </div>
      )}
      {chips && <div className={styles.chips}>{chips}</div>}
      <ListFiltersContext.Provider
        value={{ active: activeFilters, clear: onClear, clearLabel: labels.clearFilters ?? labels.clear }}
      >
        {children}
      </ListFiltersContext.Provider>
      {narrow && filterOpen && (
        <Dialog
          title={labels.filterTitle}
          onClose={() => setFilterOpen(false)}
          position={{ narrow: 'bottom', regular: 'center' }}
          footerButtons={[
            { content: labels.clear, onClick: onClear, disabled: activeFilters === 0 },
            { content: labels.close, buttonType: 'primary', onClick: () => setFilterOpen(false) },
          ]}
        >
          <div className={styles.dialogFilters}>{filters}</div>
        </Dialog>
      )}
    </Page>
  );
}
