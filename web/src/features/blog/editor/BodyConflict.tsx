import { MergeChoices, MergeClash, MergeOption } from '../../../components/ConflictMerge';
import { useT } from '../../../app/i18n';
import { RichTextView } from '../../../components/rich-text/RichTextView';
import { blockText, unionBlocks } from './body-merge';
import type { BodyChoice, BodyClash } from './use-post-conflict';
import styles from './editor.module.css';

/**
 * The body after a conflict where both sides changed it: the saved body as readers see it, the
 * paragraphs side by side (in both, only yours, only the saved one), and the choice of which body
 * the editor holds: yours, the saved one, or both together. Choosing again never loses what was typed.
 */
export function BodyConflict({ clash, onChoose }: { clash: BodyClash; onChoose(choice: BodyChoice): void }) {
  const t = useT();
  const rows = unionBlocks(clash.base, clash.mine, clash.theirs);
  const options: { choice: BodyChoice; label: string }[] = [
    { choice: 'mine', label: t('blogEdit.bodyMine') },
    { choice: 'theirs', label: t('blogEdit.bodyTheirs') },
    { choice: 'merged', label: t('blogEdit.bodyMerged') },
  ];
  return (
    <MergeClash legend={t('blogEdit.bodyClash')} testId="body-clash">
      <div className={styles.bodyClash}>
        <p className={styles.hint}>{t('blogEdit.bodyClashHint')}</p>
        <MergeChoices columns={3}>
          {options.map((o) => (
            <MergeOption
              key={o.choice}
              name="body"
              checked={clash.choice === o.choice}
              caption={o.label}
              onChange={() => onChoose(o.choice)}
            />
          ))}
        </MergeChoices>
        <details className={styles.bodyCompare}>
          <summary>{t('blogEdit.bodyCompare')}</summary>
          <ol className={styles.bodyRows}>
            {rows.map((r, i) => (
              <li key={i} className={styles.bodyRow} data-side={r.side}>
                <span className={styles.bodySide}>
                  {t(
                    r.side === 'both'
                      ? 'blogEdit.sideBoth'
                      : r.side === 'mine'
                        ? 'blogEdit.sideMine'
                        : 'blogEdit.sideTheirs',
                  )}
                </span>
                <span className={styles.bodyText}>{blockText(r.block)}</span>
              </li>
            ))}
          </ol>
        </details>
        <div className={styles.bodySaved}>
          <span className={styles.caption}>{t('blogEdit.bodyTheirs')}</span>
          <RichTextView html={clash.theirsHtml} testId="body-clash-theirs" />
        </div>
      </div>
    </MergeClash>
  );
}
