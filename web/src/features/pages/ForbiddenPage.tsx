import { useNavigate } from 'react-router-dom';
import { Blankslate } from '@primer/react/experimental';
import { ShieldLockIcon } from '@primer/octicons-react';
import { useSession } from '../../app/auth/session';
import { useDocumentTitle, useT } from '../../app/i18n';
import { defaultLandingPath } from '../../app/use-narrow';
import { Page } from '../../components/Page';

/** Shown in place of a screen the user's role may not use (spec section 6). */
export default function ForbiddenPage({ page }: { page: string }) {
  const t = useT();
  const navigate = useNavigate();
  const { user } = useSession();
  useDocumentTitle(t('page.forbidden'));
  return (
    <Page testId="forbidden-page">
      <Blankslate border spacious>
        <Blankslate.Visual>
          <ShieldLockIcon size="medium" />
        </Blankslate.Visual>
        <Blankslate.Heading as="h1">{t('forbidden.title')}</Blankslate.Heading>
        <Blankslate.Description>
          {t('forbidden.body', { page })}
          <br />
          {t('forbidden.yourRole', { role: t(`role.${user.role}`) })}
        </Blankslate.Description>
        <Blankslate.PrimaryAction onClick={() => navigate(defaultLandingPath())}>
          {t('forbidden.home')}
        </Blankslate.PrimaryAction>
      </Blankslate>
    </Page>
  );
}
