import { Checkbox } from '@primer/react';
import { useT } from '../../../app/i18n';
import { CheckboxField } from '../../../components/Field';
import { ViewItem } from '../../../components/FormFields';
import styles from './categories.module.css';

export interface Permissions {
  write: boolean;
  read: boolean;
}

/**
 * 書き込み / 閲覧. Writing includes reading (the server stores it so): ticking 書き込み ticks 閲覧,
 * unticking 閲覧 unticks 書き込み, so the form never shows a combination the server would not keep.
 */
export function PermissionsField({
  value,
  onChange,
  readOnly,
  error,
}: {
  value: Permissions;
  onChange(v: Permissions): void;
  readOnly: boolean;
  error?: string;
}) {
  const t = useT();
  const text = [value.write && t('blogCat.perm.WRITE'), value.read && t('blogCat.perm.READ')]
    .filter(Boolean)
    .join('・');
  if (readOnly)
    return (
      <ViewItem
        label={t('blogCat.permissions')}
        value={text}
        caption={t(value.write ? 'blogCat.permMeansWrite' : 'blogCat.permMeansRead')}
        wide
        testId="category-permissions"
      />
    );
  return (
    <fieldset className={styles.permissions} aria-invalid={error ? true : undefined}>
      <legend className={styles.legend}>
        {t('blogCat.permissions')}
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      </legend>
      <div className={styles.checks}>
        <CheckboxField label={t('blogCat.perm.WRITE')}>
          {(c) => (
            <Checkbox
              {...c}
              checked={value.write}
              onChange={(e) => onChange(e.target.checked ? { write: true, read: true } : { ...value, write: false })}
            />
          )}
        </CheckboxField>
        <CheckboxField label={t('blogCat.perm.READ')}>
          {(c) => (
            <Checkbox
              {...c}
              checked={value.read}
              onChange={(e) => onChange(e.target.checked ? { ...value, read: true } : { write: false, read: false })}
            />
          )}
        </CheckboxField>
      </div>
      {error && <p className={styles.error}>{error}</p>}
      <p className={styles.caption}>{t('blogCat.permCaption')}</p>
    </fieldset>
  );
}
