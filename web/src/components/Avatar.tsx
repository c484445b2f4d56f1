import { useState } from 'react';
import { faceColour, initialsOf } from '@intranet/schema/people/face';
import styles from './Avatar.module.css';

/**
 * A person's face: their picture (`src`, a thumbnail the browser caches for good: its URL changes
 * with the picture) or, without one or when it fails to load, their initials on a colour from their
 * name (readable in light and dark themes). Decorative next to the name it stands for (aria-hidden),
 * unless `label`.
 */
export function Avatar({
  name,
  size = 32,
  label,
  src,
  employeeId,
}: {
  name: string;
  size?: number;
  label?: string;
  src?: string | null;
  employeeId?: number | null;
}) {
  // A person known by id shows their face from its one URL (their picture, or the server's initials).
  if (!src && employeeId) src = `/api/avatars/${employeeId}`;
  const [failed, setFailed] = useState<string | null>(null);
  const a11y = {
    role: label ? 'img' : undefined,
    'aria-label': label,
    'aria-hidden': label ? undefined : true,
  } as const;
  if (src && failed !== src)
    return (
      <img
        className={styles.picture}
        src={src}
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(src)}
        data-testid="avatar"
        {...(label ? { alt: label } : { 'aria-hidden': true })}
      />
    );
  return (
    <span
      className={styles.avatar}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42), background: faceColour(name) }}
      {...a11y}
      data-testid="avatar"
    >
      {initialsOf(name)}
    </span>
  );
}
