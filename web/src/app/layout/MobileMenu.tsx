import { Fragment } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ActionList, ActionMenu, IconButton } from '@primer/react';
import { HomeIcon, ThreeBarsIcon } from '@primer/octicons-react';
import { useSession } from '../auth/session';
import { useT } from '../i18n';
import { hrefOf, menuFor, type MenuLeaf } from '../menu';

/** Narrow screens (< 440 px): the same entries as the sidebar, in a popup from the header. */
export function MobileMenu() {
  const t = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { user } = useSession();
  const groups = menuFor(user.role);

  const item = (leaf: MenuLeaf, label = leaf.label) => {
    const Icon = leaf.icon;
    return (
      <ActionList.Item key={leaf.id} active={leaf.matches.test(pathname)} onSelect={() => navigate(hrefOf(leaf, true))}>
        <ActionList.LeadingVisual>
          <Icon />
        </ActionList.LeadingVisual>
        {t(label)}
      </ActionList.Item>
    );
  };

  return (
    <ActionMenu>
      <ActionMenu.Anchor>
        <IconButton
          icon={ThreeBarsIcon}
          variant="invisible"
          aria-label={t('header.openMenu')}
          data-testid="mobile-menu-button"
        />
      </ActionMenu.Anchor>
      <ActionMenu.Overlay width="medium" maxHeight="xlarge" overflow="auto" side="outside-bottom" align="start">
        <ActionList aria-label={t('nav.label')} data-testid="mobile-menu">
          <ActionList.Item active={pathname === '/home'} onSelect={() => navigate('/home')}>
            <ActionList.LeadingVisual>
              <HomeIcon />
            </ActionList.LeadingVisual>
            {t('nav.home')}
          </ActionList.Item>
          {groups.map((g) => {
            const leaves = g.children.flatMap((c) => (c.kind === 'leaf' ? [c] : c.children));
            if (!g.title) {
              return (
                <Fragment key={g.id}>
                  <ActionList.Divider />
                  {leaves.map((l) => item(l, l.longLabel))}
                  <ActionList.Divider />
                </Fragment>
              );
            }
            return (
              <ActionList.Group key={g.id}>
                <ActionList.GroupHeading>{t(g.title)}</ActionList.GroupHeading>
                {leaves.map((l) => item(l))}
              </ActionList.Group>
            );
          })}
        </ActionList>
      </ActionMenu.Overlay>
    </ActionMenu>
  );
}
