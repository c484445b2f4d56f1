import { useId, type ReactNode } from 'react';
import { AlertFillIcon } from '@primer/octicons-react';
import styles from './Field.module.css';

export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  required?: boolean;
}

/**
 * A labelled form field in Primer's look (label, control, caption, validation message), wired
 * for assistive technology. Lighter than FormControl, which pulls in every input it knows about.
 */
export function Field({
  label,
  required,
  caption,
  error,
  children,
}: {
  label: string;
  required?: boolean;
  caption?: string;
  error?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const captionId = `${id}-caption`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, caption ? captionId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <span className={styles.labelRow}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        {required && (
          <span className={styles.required} aria-hidden="true">
            *
          </span>
        )}
      </span>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, required })}
      {error && (
        <p id={errorId} className={styles.error}>
          <AlertFillIcon size={12} aria-hidden="true" />
          <span>{error}</span>
        </p>
      )}
      {caption && (
        <p id={captionId} className={styles.caption}>
          {caption}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label and an optional caption beside it. */
export function CheckboxField({
  label,
  caption,
  children,
}: {
  label: string;
  caption?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const captionId = `${id}-caption`;
  return (
    <div className={styles.checkField}>
      <span className={styles.checkBox}>{children({ id, 'aria-describedby': caption ? captionId : undefined })}</span>
      <span className={styles.checkText}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        {caption && (
          <span id={captionId} className={styles.caption}>
            {caption}
          </span>
        )}
      </span>
    </div>
  );
}
