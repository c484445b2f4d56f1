import { Blankslate } from '@primer/react/experimental';
import { AlertIcon } from '@primer/octicons-react';
import { CenteredBox } from '../../components/CenteredStatus';
import { useT } from '../i18n';

/** The session could not be checked (server unreachable) and nothing is cached to show. */
export default function SessionError({ onRetry }: { onRetry(): void }) {
  const t = useT();
  return (
    <CenteredBox>
      <Blankslate border spacious>
        <Blankslate.Visual>
          <AlertIcon size="medium" />
        </Blankslate.Visual>
        <Blankslate.Heading as="h1">{t('auth.errorTitle')}</Blankslate.Heading>
        <Blankslate.Description>{t('auth.errorBody')}</Blankslate.Description>
        <Blankslate.PrimaryAction onClick={onRetry}>{t('auth.retry')}</Blankslate.PrimaryAction>
      </Blankslate>
    </CenteredBox>
  );
}
