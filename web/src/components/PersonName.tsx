import type { ReactNode } from 'react';
import { Avatar } from './Avatar';
import styles from './Avatar.module.css';

/** A person as lists show them: their face (GET /api/avatars/{id}) and their name. */
export function PersonName({
  id,
  name,
  size = 20,
  children,
}: {
  id: number | null;
  name: string;
  size?: number;
  children?: ReactNode;
}) {
  return (
    <span className={styles.person}>
      <Avatar name={name} employeeId={id} size={size} />
      {children ?? name}
    </span>
  );
}
