import { Link as RouterLink } from 'react-router-dom';
import { ChevronRightIcon } from '@primer/octicons-react';
import { AREAS } from '../../app/areas';
import { useSession } from '../../app/auth/session';
import { useDocumentTitle, useT } from '../../app/i18n';
import { hrefOf, leavesFor } from '../../app/menu';
import { useNarrow } from '../../app/use-narrow';
import { Page } from '../../components/Page';
import { PageHeading } from '../../components/PageHeading';
import styles from './HomePage.module.css';

/** /home: large buttons to the main areas the user's role may use (meant for narrow screens). */
export default function HomePage() {
  const t = useT();
  const narrow = useNarrow();
  const { user } = useSession();
  useDocumentTitle(t('page.home'));
  const items = leavesFor(user.role);

  return (
    <Page testId="home-page">
      <PageHeading title={t('home.greeting', { name: user.name })} description={t('home.lead')} />
      <nav aria-label={t('nav.label')}>
        <ul className={styles.grid}>
          {items.map((item) => {
            const Icon = item.icon;
            const area = AREAS[item.area];
            return (
              <li key={item.id}>
                <RouterLink to={hrefOf(item, narrow)} className={styles.tile} data-testid={`home-tile-${item.id}`}>
                  <span className={styles.icon} aria-hidden="true">
                    <Icon size={24} />
                  </span>
                  <span className={styles.text}>
                    <span className={styles.label}>{t(item.longLabel)}</span>
                    {t(area.section) !== t(item.longLabel) && <span className={styles.section}>{t(area.section)}</span>}
                  </span>
                  <ChevronRightIcon className={styles.chevron} aria-hidden="true" />
                </RouterLink>
              </li>
            );
          })}
        </ul>
      </nav>
    </Page>
  );
}
