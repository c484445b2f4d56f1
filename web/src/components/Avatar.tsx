import styles from './Avatar.module.css';

/** A hue from the name, so each person keeps their colour on every screen (djb2 over the code points). */
export function hueOf(name: string): number {
  let h = 5381;
  for (const ch of name) h = ((h << 5) + h + ch.codePointAt(0)!) | 0;
  return Math.abs(h) % 360;
}

/** The initials: a Japanese name's first character (the family name's), else the first letters of two words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]!][0]!;
  if (/^[A-Za-z]/.test(first) && words.length > 1) return (first + [...words[1]!][0]!).toUpperCase();
  return first.toUpperCase();
}

/**
 * A person's face where no picture is set: their initials on a colour from their name (readable in
 * light and dark themes). Decorative next to the name it stands for (aria-hidden), unless `label`.
 */
export function Avatar({ name, size = 32, label }: { name: string; size?: number; label?: string }) {
  return (
    <span
      className={styles.avatar}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42), ['--avatar-hue' as string]: hueOf(name) }}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-testid="avatar"
    >
      {initialsOf(name)}
    </span>
  );
}
