import { Link as RouterLink, useLocation } from 'react-router-dom';
import { NavList } from '@primer/react';
import { useSession } from '../auth/session';
import { useT } from '../i18n';
import { menuFor, type MenuLeaf, type MenuParent } from '../menu';
import styles from './SideNav.module.css';

/** The desktop sidebar: the spec's menu groups, filtered by the user's role. */
export function SideNav() {
  const t = useT();
  const { user } = useSession();
  const { pathname } = useLocation();
  const groups = menuFor(user.role);

  const leaf = (item: MenuLeaf) => {
    const Icon = item.icon;
    return (
      <NavList.Item
        key={item.id}
        as={RouterLink}
        to={item.to}
        aria-current={item.matches.test(pathname) ? 'page' : undefined}
      >
        <NavList.LeadingVisual>
          <Icon />
        </NavList.LeadingVisual>
        {t(item.label)}
      </NavList.Item>
    );
  };

  const parent = (p: MenuParent) => {
    const Icon = p.icon;
    return (
      <NavList.Item key={p.id} defaultOpen>
        <NavList.LeadingVisual>
          <Icon />
        </NavList.LeadingVisual>
        {t(p.label)}
        <NavList.SubNav>{p.children.map(leaf)}</NavList.SubNav>
      </NavList.Item>
    );
  };

  return (
    <NavList aria-label={t('nav.label')} className={styles.nav}>
      {groups.map((g) =>
        g.title ? (
          <NavList.Group key={g.id} title={t(g.title)}>
            {g.children.map((c) => (c.kind === 'leaf' ? leaf(c) : parent(c)))}
          </NavList.Group>
        ) : (
          g.children.map((c) => (c.kind === 'leaf' ? leaf(c) : parent(c)))
        ),
      )}
    </NavList>
  );
}
