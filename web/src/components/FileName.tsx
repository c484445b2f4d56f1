import styles from './FileName.module.css';

/**
 * A file name on one line (never 「memo.」 and 「txt」 on two): a name too long for its box is cut
 * with …, and the whole name is its title.
 */
export function FileName({ name, className, testId }: { name: string; className?: string; testId?: string }) {
  return (
    <span className={className ? `${styles.name} ${className}` : styles.name} title={name} data-testid={testId}>
      {name}
    </span>
  );
}
