import { ActionList, ActionMenu, IconButton } from '@primer/react';
import { GlobeIcon } from '@primer/octicons-react';
import { LOCALES, useI18n } from '../i18n';

/** Japanese by default; the choice is kept in localStorage. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { locale, setLocale, t } = useI18n();
  return (
    <ActionMenu>
      {compact ? (
        <ActionMenu.Anchor>
          <IconButton icon={GlobeIcon} variant="invisible" aria-label={t('lang.label')} data-testid="language-switch" />
        </ActionMenu.Anchor>
      ) : (
        <ActionMenu.Button
          variant="invisible"
          leadingVisual={GlobeIcon}
          aria-label={`${t('lang.label')}: ${t(`lang.${locale}`)}`}
          data-testid="language-switch"
        >
          {t(`lang.${locale}`)}
        </ActionMenu.Button>
      )}
      <ActionMenu.Overlay width="small" align="end">
        <ActionList selectionVariant="single" aria-label={t('lang.label')}>
          <ActionList.GroupHeading>{t('lang.label')}</ActionList.GroupHeading>
          {LOCALES.map((l) => (
            <ActionList.Item key={l} selected={l === locale} onSelect={() => setLocale(l)} lang={l}>
              {t(`lang.${l}`)}
            </ActionList.Item>
          ))}
        </ActionList>
      </ActionMenu.Overlay>
    </ActionMenu>
  );
}
