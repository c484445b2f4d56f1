import { useT } from '../../app/i18n';
import styles from './comments.module.css';

/** Said under every comment and reply box (the textarea points to it with aria-describedby). */
export function EnterHint({ id }: { id: string }) {
  const t = useT();
  return (
    <span id={id} className={styles.enterHint}>
      {t('comments.enterHint')}
    </span>
  );
}
