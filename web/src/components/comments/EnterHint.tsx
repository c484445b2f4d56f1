import { useT } from '../../app/i18n';
import styles from './comments.module.css';

/** Said under every comment and reply box (the textarea points to it with aria-describedby); `mentions`: @ lists people too. */
export function EnterHint({ id, mentions }: { id: string; mentions?: boolean }) {
  const t = useT();
  return (
    <span id={id} className={styles.enterHint}>
      {t(mentions ? 'comments.enterHintMention' : 'comments.enterHint')}
    </span>
  );
}
