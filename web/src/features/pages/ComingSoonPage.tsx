import { useNavigate } from 'react-router-dom';
import { Blankslate } from '@primer/react/experimental';
import { ToolsIcon } from '@primer/octicons-react';
import { AREAS, pageTitleKey, type PageDef } from '../../app/areas';
import { useDocumentTitle, useT } from '../../app/i18n';
import { Page } from '../../components/Page';
import { PageHeading } from '../../components/PageHeading';

/**
 * A screen of the route table that is not built yet: the real title and an honest empty state.
 * No sample rows, no mock data.
 */
export default function ComingSoonPage({ def, id }: { def: PageDef; id?: string }) {
  const t = useT();
  const navigate = useNavigate();
  const area = AREAS[def.area];
  const title = t(pageTitleKey(def, id));
  useDocumentTitle(title);
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  const showId = def.mode === 'detail' && id && id !== 'new';

  return (
    <Page testId="coming-soon-page">
      <PageHeading
        section={t(area.section) !== title ? t(area.section) : undefined}
        title={title}
        description={t(area.description)}
        labels={[def.mobile ? t('variant.mobile') : null, showId ? t('record.id', { id }) : null]}
      />
      <Blankslate border spacious>
        <Blankslate.Visual>
          <ToolsIcon size="medium" />
        </Blankslate.Visual>
        <Blankslate.Heading as="h2">{t('placeholder.title')}</Blankslate.Heading>
        <Blankslate.Description>{t('placeholder.body', { page: title })}</Blankslate.Description>
        {canGoBack && <Blankslate.PrimaryAction onClick={() => navigate(-1)}>{t('placeholder.back')}</Blankslate.PrimaryAction>}
      </Blankslate>
    </Page>
  );
}
