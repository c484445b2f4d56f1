import { Banner } from '@primer/react';
import { useT } from '../app/i18n';
import { displayDateTime } from './master-options';

/** The question over a form when an autosaved draft was found (app/use-autosave.ts): restore it or throw it away. */
export function DraftOffer({
  savedAt,
  onRestore,
  onDiscard,
}: {
  savedAt: number;
  onRestore(): void;
  onDiscard(): void;
}) {
  const t = useT();
  return (
    <Banner
      variant="warning"
      title={t('draft.offerTitle')}
      description={t('draft.offerBody', { time: displayDateTime(new Date(savedAt).toISOString()) })}
      primaryAction={
        <Banner.PrimaryAction onClick={onRestore} data-testid="draft-restore">
          {t('draft.restore')}
        </Banner.PrimaryAction>
      }
      secondaryAction={
        <Banner.SecondaryAction onClick={onDiscard} data-testid="draft-discard">
          {t('draft.discard')}
        </Banner.SecondaryAction>
      }
      data-testid="draft-offer"
    />
  );
}
