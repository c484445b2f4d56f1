import type { ReactNode } from 'react';
import { Heading, Label } from '@primer/react';
import styles from './PageHeading.module.css';

/** The title block of a screen: section, title, labels and a one-line description. */
export function PageHeading({
  section,
  title,
  description,
  labels,
}: {
  section?: string;
  title: string;
  description?: string;
  labels?: ReactNode[];
}) {
  return (
    <div className={styles.heading}>
      {section && <div className={styles.section}>{section}</div>}
      <div className={styles.titleRow}>
        <Heading as="h1" className={styles.title}>
          {title}
        </Heading>
        {labels?.filter(Boolean).map((l, i) => (
          <Label key={i} variant="secondary" size="large">
            {l}
          </Label>
        ))}
      </div>
      {description && <p className={styles.description}>{description}</p>}
    </div>
  );
}
