import styles from './Phrases.module.css';

/**
 * Short phrases that each stay whole (「部署 3」「社員 12人」: never a number apart from its counter);
 * a narrow cell wraps between them, not inside one.
 */
export function Phrases({ items }: { items: string[] }) {
  return (
    <span className={styles.phrases}>
      {items.map((item, i) => (
        <span key={i} className={styles.phrase}>
          {item}
        </span>
      ))}
    </span>
  );
}
