import { useEffect, useRef } from 'react';
import { Banner, Radio } from '@primer/react';
import { useT } from '../app/i18n';
import styles from './ConflictMerge.module.css';

export interface MergeClash {
  key: string;
  label: string;
  mine: string;
  theirs: string;
  choice: 'mine' | 'theirs';
}

/**
 * A save refused because someone saved first, after the three-way merge: the user's edits are still
 * in the form; what the other side changed alone was taken; each field both changed is shown as
 * theirs against the saved value, for the user to pick. Then Save writes against the saved version.
 */
export function ConflictMerge({
  title,
  message,
  taken,
  clashes,
  onChoose,
  onDismiss,
}: {
  title: string;
  message: string;
  taken: string[];
  clashes: MergeClash[];
  onChoose(key: string, choice: 'mine' | 'theirs'): void;
  onDismiss?(): void;
}) {
  const t = useT();
  const panel = useRef<HTMLDivElement>(null);
  // Save sits at the bottom of a long form: bring what the refusal asks of the user into view.
  useEffect(() => panel.current?.scrollIntoView({ block: 'start' }), []);
  const description = sentences([
    message,
    t('merge.kept'),
    taken.length ? t('merge.taken', { fields: taken.join('、') }) : null,
    clashes.length ? t('merge.clashes') : t('merge.noClash'),
  ]);
  return (
    <div ref={panel} className={styles.merge} data-testid="conflict-merge">
      <Banner
        variant="warning"
        title={title}
        description={description}
        onDismiss={onDismiss}
        data-testid="conflict-banner"
      />
      {clashes.length > 0 && (
        <div className={styles.clashes}>
          {clashes.map((c) => (
            <MergeClash key={c.key} legend={c.label} testId="merge-clash" field={c.key}>
              <MergeChoices>
                <MergeOption
                  name={c.key}
                  checked={c.choice === 'mine'}
                  caption={t('merge.mine')}
                  value={c.mine}
                  onChange={() => onChoose(c.key, 'mine')}
                />
                <MergeOption
                  name={c.key}
                  checked={c.choice === 'theirs'}
                  caption={t('merge.theirs')}
                  value={c.theirs}
                  onChange={() => onChoose(c.key, 'theirs')}
                />
              </MergeChoices>
            </MergeClash>
          ))}
        </div>
      )}
    </div>
  );
}

/** One thing both sides changed, framed, with its name as the legend. */
export function MergeClash({
  legend,
  testId,
  field,
  children,
}: {
  legend: string;
  testId: string;
  field?: string;
  children: React.ReactNode;
}) {
  return (
    <fieldset className={styles.clash} data-testid={testId} data-field={field}>
      <legend className={styles.legend}>{legend}</legend>
      {children}
    </fieldset>
  );
}

/** The choices of one clash, side by side (one column on a phone). */
export function MergeChoices({ children, columns = 2 }: { children: React.ReactNode; columns?: 2 | 3 }) {
  return (
    <div className={styles.options} data-columns={columns}>
      {children}
    </div>
  );
}

/** One side of a clash: a radio card with its caption and, when there is one, the value it keeps. */
export function MergeOption({
  name,
  checked,
  caption,
  value,
  onChange,
}: {
  name: string;
  checked: boolean;
  caption: string;
  value?: string;
  onChange(): void;
}) {
  return (
    <label className={styles.option} data-checked={checked || undefined}>
      <Radio name={`merge-${name}`} value={caption} checked={checked} onChange={onChange} />
      <span className={styles.optionText}>
        <span className={value === undefined ? undefined : styles.caption}>{caption}</span>
        {value !== undefined && <span className={styles.value}>{value}</span>}
      </span>
    </label>
  );
}

/** Sentences in a row: Japanese ones (ending in 。) run on, others get a space. */
function sentences(parts: (string | null)[]): string {
  return parts
    .filter((p): p is string => !!p)
    .reduce((text, p) => (!text ? p : text.endsWith('。') ? text + p : `${text} ${p}`), '');
}
