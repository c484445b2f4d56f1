import { TextInput } from '@primer/react';
import { useT } from '../../../app/i18n';
import { Field } from '../../../components/Field';
import { ViewItem } from '../../../components/FormFields';
import { CategoryLabel } from '../BlogCard';
import styles from './categories.module.css';

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * A category's colour: the browser's colour picker beside the #RRGGBB text (either edits it), and
 * the label as the feed will draw it, black or white text by contrast. The server checks the text.
 */
export function ColorField({
  value,
  name,
  onChange,
  readOnly,
  error,
}: {
  value: string;
  name: string;
  onChange(v: string): void;
  readOnly: boolean;
  error?: string;
}) {
  const t = useT();
  // View mode: the colour itself (the name is right beside it; a label would say it twice).
  if (readOnly)
    return (
      <ViewItem
        label={t('blogCat.color')}
        testId="category-color"
        value={
          <span className={styles.colorRow}>
            <span className={styles.dot} style={{ background: value }} aria-hidden="true" />
            <code>{value}</code>
          </span>
        }
      />
    );
  const preview = <CategoryLabel category={{ id: 0, name: name.trim() || t('blogCat.previewName'), color: value }} />;
  return (
    <Field label={t('blogCat.color')} error={error} caption={t('blogCat.colorCaption')}>
      {(c) => (
        <div className={styles.colorRow}>
          <input
            type="color"
            className={styles.swatch}
            value={HEX.test(value) ? value.toLowerCase() : '#000000'}
            onChange={(e) => onChange(e.target.value)}
            aria-label={t('blogCat.colorPicker')}
          />
          <TextInput
            {...c}
            value={value}
            onChange={(e) => onChange(e.target.value.trim())}
            className={styles.hex}
            maxLength={7}
            autoComplete="off"
            spellCheck={false}
          />
          <span className={styles.preview} role="img" aria-label={t('blogCat.preview')} data-testid="category-preview">
            {preview}
          </span>
        </div>
      )}
    </Field>
  );
}
