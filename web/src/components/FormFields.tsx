import type { ReactNode } from 'react';
import { Button, Select, TextInput } from '@primer/react';
import { PersonIcon, XIcon } from '@primer/octicons-react';
import { Field } from './Field';
import { displayDate } from './master-options';
import styles from './FormFields.module.css';

/** A two-column grid of fields (one column on narrow screens). */
export function FormGrid({ children }: { children: ReactNode }) {
  return <div className={styles.grid}>{children}</div>;
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
  return (
    <div className={wide ? styles.wide : undefined}>
      <Field label={label} required={required && !readOnly} error={error} caption={caption}>
        {(c) => (
          <TextInput
            {...c}
            block
            type={type === 'date' && readOnly ? 'text' : type}
            value={type === 'date' && readOnly ? displayDate(value) : value}
            readOnly={readOnly}
            placeholder={readOnly ? undefined : placeholder}
            autoComplete={autoComplete}
            className={readOnly ? styles.readOnly : undefined}
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
}) {
  return (
    <Field label={label} required={required && !readOnly} error={error}>
      {(c) => (
        <Select {...c} block value={value} disabled={readOnly} onChange={(e) => onChange(e.target.value)}>
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

/** A read-only value shown like a field (registration dates, the employee's department). */
export function ReadonlyField({ label, value, caption }: { label: string; value: string; caption?: string }) {
  return (
    <Field label={label} caption={caption}>
      {(c) => <TextInput {...c} block value={value} readOnly className={styles.readOnly} />}
    </Field>
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
}) {
  return (
    <Field label={label} error={error}>
      {(c) => (
        <div className={styles.picker}>
          <TextInput {...c} block value={display ?? ''} placeholder={emptyText} readOnly className={styles.readOnly} onClick={readOnly ? undefined : onPick} />
          {!readOnly && (
            <>
              <Button leadingVisual={PersonIcon} onClick={onPick} aria-label={`${label}: ${pickLabel}`}>
                {pickLabel}
              </Button>
              {display && (
                <Button variant="invisible" onClick={onClear} aria-label={`${label}: ${clearLabel}`}>
                  <XIcon />
                </Button>
              )}
            </>
          )}
        </div>
      )}
    </Field>
  );
}
