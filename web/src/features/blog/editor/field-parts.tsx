import { AlertFillIcon } from '@primer/octicons-react';
import fieldStyles from '../../../components/Field.module.css';
import styles from './editor.module.css';

/** A label of a group of controls, in the look of the app's field labels (lighter in view mode). */
export const GROUP_LABEL = `${fieldStyles.label} ${styles.blockLabel}`;
export const CAPTION = fieldStyles.caption;

/** The message under a group of controls, as the app's fields show theirs. */
export function FieldError({ id, text, alert }: { id?: string; text?: string; alert?: boolean }) {
  if (!text) return null;
  return (
    <p id={id} className={fieldStyles.error} role={alert ? 'alert' : undefined}>
      <AlertFillIcon size={12} aria-hidden="true" />
      <span>{text}</span>
    </p>
  );
}
