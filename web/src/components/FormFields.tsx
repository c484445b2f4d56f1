import { createContext, useContext, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Select, TextInput } from '@primer/react';
import { PersonIcon, XIcon } from '@primer/octicons-react';
import { useT } from '../app/i18n';
import { Field } from './Field';
import { displayDate } from './master-options';
import styles from './FormFields.module.css';

/**
 * View or edit: a record in view mode reads as a description list (label, value; a value that names
 * another record links to it), in edit mode as inputs. DetailFrame provides it.
 */
export const RecordModeContext = createContext<{ editing: boolean; emptyText: string }>({
  editing: true,
  emptyText: '—',
});

/** A two-column grid of fields (one column on narrow screens); a description list in view mode. */
export function FormGrid({ children }: { children: ReactNode }) {
  const { editing } = useContext(RecordModeContext);
  return editing ? (
    <div className={styles.grid}>{children}</div>
  ) : (
    <dl className={`${styles.grid} ${styles.list}`}>{children}</dl>
  );
}

function ValueText({ value, href, title }: { value: ReactNode; href?: string; title?: string }) {
  if (!href) return <>{value}</>;
  return (
    <RouterLink to={href} className={styles.link} title={title}>
      {value}
    </RouterLink>
  );
}

/** One label and value of a record in view mode. */
export function ViewItem({
  label,
  value,
  href,
  linkTitle,
  caption,
  wide,
  testId,
}: {
  label: string;
  value: ReactNode;
  href?: string;
  linkTitle?: string;
  caption?: string;
  wide?: boolean;
  testId?: string;
}) {
  const { emptyText } = useContext(RecordModeContext);
  const empty = value === null || value === undefined || value === '';
  return (
    <div className={wide ? `${styles.item} ${styles.wide}` : styles.item} data-testid={testId}>
      <dt className={styles.term}>{label}</dt>
      <dd className={styles.value}>
        {empty ? (
          <span className={styles.empty}>{emptyText}</span>
        ) : (
          <ValueText value={value} href={href} title={linkTitle} />
        )}
        {caption && <span className={styles.caption}>{caption}</span>}
      </dd>
    </div>
  );
}

export function FormSection({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className={styles.section}>
      <div className={styles.sectionHead}>
        <h2 className={styles.sectionTitle}>{title}</h2>
        {actions && <div className={styles.sectionActions}>{actions}</div>}
      </div>
      {children}
    </section>
  );
}

export function TextField({
  label,
  value,
  onChange,
  readOnly,
  required,
  error,
  type = 'text',
  wide,
  caption,
  placeholder,
  autoComplete,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  readOnly?: boolean;
  required?: boolean;
  error?: string;
  type?: 'text' | 'email' | 'password' | 'date' | 'number' | 'tel';
  wide?: boolean;
  caption?: string;
  placeholder?: string;
  autoComplete?: string;
}) {
  if (readOnly) return <ViewItem label={label} value={type === 'date' ? displayDate(value) : value} wide={wide} />;
  return (
    <div className={wide ? styles.wide : undefined}>
      <Field label={label} required={required} error={error} caption={caption}>
        {(c) => (
          <TextInput
            {...c}
            block
            type={type}
            value={value}
            placeholder={placeholder}
            autoComplete={autoComplete}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
    </div>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  readOnly,
  required,
  error,
  emptyLabel,
  hrefOf,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  options: readonly { value: string; label: string }[];
  readOnly?: boolean;
  required?: boolean;
  error?: string;
  /** Offer an empty choice with this label. */
  emptyLabel?: string;
  /** The page of the chosen record (view mode links to it). */
  hrefOf?(value: string): string | undefined;
}) {
  const t = useT();
  if (readOnly) {
    const chosen = options.find((o) => o.value === value);
    // A value whose choices are still on their way is set, not 未設定.
    const shown = chosen?.label ?? (value && !options.length ? t('common.loading') : '');
    return <ViewItem label={label} value={shown} href={chosen && hrefOf ? hrefOf(value) : undefined} />;
  }
  return (
    <Field label={label} required={required} error={error}>
      {(c) => (
        <Select {...c} block value={value} onChange={(e) => onChange(e.target.value)}>
          {emptyLabel !== undefined && <Select.Option value="">{emptyLabel}</Select.Option>}
          {options.map((o) => (
            <Select.Option key={o.value} value={o.value}>
              {o.label}
            </Select.Option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/**
 * A value the form never edits (registration dates, the employee's department): a list item in view
 * mode, plain text under its label in edit mode (not a greyed-out input).
 */
export function ReadonlyField({
  label,
  value,
  caption,
  href,
  linkTitle,
}: {
  label: string;
  value: string;
  caption?: string;
  href?: string;
  linkTitle?: string;
}) {
  const { editing } = useContext(RecordModeContext);
  if (!editing) return <ViewItem label={label} value={value} href={href} linkTitle={linkTitle} />;
  return (
    <div className={styles.fixed} role="group" aria-label={label}>
      <span className={styles.fixedLabel}>{label}</span>
      <span className={styles.value}>
        <ValueText value={value} href={href} title={linkTitle} />
      </span>
      {caption && <span className={styles.caption}>{caption}</span>}
    </div>
  );
}

/** A value chosen in a picker dialog: shows the choice, a "choose" button and a clear button. */
export function PickerField({
  label,
  display,
  onPick,
  onClear,
  readOnly,
  error,
  pickLabel,
  clearLabel,
  emptyText,
  href,
}: {
  label: string;
  display: string | null;
  onPick(): void;
  onClear(): void;
  readOnly?: boolean;
  error?: string;
  pickLabel: string;
  clearLabel: string;
  emptyText: string;
  /** The chosen record's page (view mode links to it). */
  href?: string;
}) {
  if (readOnly) return <ViewItem label={label} value={display} href={href} />;
  return (
    <Field label={label} error={error}>
      {(c) => (
        <div className={styles.picker}>
          <TextInput
            {...c}
            block
            value={display ?? ''}
            placeholder={emptyText}
            readOnly
            className={styles.readOnly}
            onClick={onPick}
          />
          <Button leadingVisual={PersonIcon} onClick={onPick} aria-label={`${label}: ${pickLabel}`}>
            {pickLabel}
          </Button>
          {display && (
            <Button variant="invisible" onClick={onClear} aria-label={`${label}: ${clearLabel}`}>
              <XIcon />
            </Button>
          )}
        </div>
      )}
    </Field>
  );
}
