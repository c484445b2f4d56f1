import { GlobeIcon } from '@primer/octicons-react';
import { LOCALES, useI18n } from '../i18n';
import styles from './LanguageToggle.module.css';

/** A light two-button language choice for the sign-in page (the shell uses a menu). */
export function LanguageToggle() {
  const { locale, setLocale, t } = useI18n();
  return (
    <div role="group" aria-label={t('lang.label')} className={styles.toggle} data-testid="language-toggle">
      <GlobeIcon className={styles.icon} aria-hidden="true" />
      {LOCALES.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          aria-pressed={l === locale}
          className={styles.option}
          onClick={() => setLocale(l)}
        >
          {t(`lang.${l}`)}
        </button>
      ))}
    </div>
  );
}
