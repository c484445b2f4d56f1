import { useNavigate } from 'react-router-dom';
import { Blankslate } from '@primer/react/experimental';
import { QuestionIcon } from '@primer/octicons-react';
import { useDocumentTitle, useT } from '../../app/i18n';
import { defaultLandingPath } from '../../app/use-narrow';
import { Page } from '../../components/Page';

export default function NotFoundPage() {
  const t = useT();
  const navigate = useNavigate();
  useDocumentTitle(t('page.notFound'));
  return (
    <Page testId="not-found-page">
      <Blankslate border spacious>
        <Blankslate.Visual>
          <QuestionIcon size="medium" />
        </Blankslate.Visual>
        <Blankslate.Heading as="h1">{t('notFound.title')}</Blankslate.Heading>
        <Blankslate.Description>{t('notFound.body')}</Blankslate.Description>
        <Blankslate.PrimaryAction onClick={() => navigate(defaultLandingPath())}>
          {t('notFound.home')}
        </Blankslate.PrimaryAction>
      </Blankslate>
    </Page>
  );
}
