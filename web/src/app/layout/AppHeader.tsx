import { Link as RouterLink } from 'react-router-dom';
import { Button, IconButton } from '@primer/react';
import { SignOutIcon } from '@primer/octicons-react';
import { useSession } from '../auth/session';
import { useT } from '../i18n';
import { LanguageSwitch } from './LanguageSwitch';
import { MobileMenu } from './MobileMenu';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { Avatar } from '../../components/Avatar';
import styles from './AppHeader.module.css';

export function AppHeader({
  narrow,
  onLogout,
  loggingOut,
}: {
  narrow: boolean;
  onLogout(): void;
  loggingOut: boolean;
}) {
  const t = useT();
  const { user } = useSession();

  return (
    <header className={styles.header}>
      {narrow && <MobileMenu />}
      <RouterLink to={narrow ? '/home' : '/'} className={styles.brand}>
        <span className={styles.logo} aria-hidden="true">
          <svg viewBox="0 0 32 32" width="28" height="28" focusable="false">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path d="M9 10h14v3H9zm0 5h14v3H9zm0 5h9v3H9z" fill="#fff" />
          </svg>
        </span>
        <span className={styles.brandName}>{t('app.name')}</span>
      </RouterLink>

      <div className={styles.actions}>
        <LanguageSwitch compact={narrow} />
        <NotificationBell />
        <div className={styles.user} aria-label={t('header.signedInAs')} role="group">
          <Avatar name={user.name} employeeId={user.id || null} size={28} />
          <span className={styles.userText}>
            <span className={styles.userName} data-testid="current-user-name">
              {user.name}
            </span>
            {!narrow && <span className={styles.userRole}>{t(`role.${user.role}`)}</span>}
          </span>
        </div>
        {narrow ? (
          <IconButton
            icon={SignOutIcon}
            aria-label={t('header.logout')}
            variant="invisible"
            onClick={onLogout}
            disabled={loggingOut}
          />
        ) : (
          <Button
            variant="invisible"
            leadingVisual={SignOutIcon}
            onClick={onLogout}
            loading={loggingOut}
            loadingAnnouncement={t('header.loggingOut')}
          >
            {t('header.logout')}
          </Button>
        )}
      </div>
    </header>
  );
}
