import type { RichTextDocument } from '../../../components/rich-text/RichTextEditor';
import { blocksOf, keyOf, type Block } from './body-merge';

export type DiffSide = 'same' | 'removed' | 'added';

/**
 * Two versions of a body block by block, in reading order: blocks both have (the longest run they
 * share, whatever ids Editor.js gave them), blocks only the older one has (removed) and blocks only
 * the newer one has (added). A changed paragraph is its old text removed and its new text added.
 */
export function blockDiff(
  older: RichTextDocument | null | undefined,
  newer: RichTextDocument | null | undefined,
): { block: Block; side: DiffSide }[] {
  const a = blocksOf(older);
  const b = blocksOf(newer);
  const ka = a.map(keyOf);
  const kb = b.map(keyOf);
  // Longest common subsequence, filled from the end: lcs[i][j] for a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = ka[i] === kb[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: { block: Block; side: DiffSide }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && ka[i] === kb[j]) {
      out.push({ block: b[j]!, side: 'same' });
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      out.push({ block: b[j]!, side: 'added' });
      j++;
    } else {
      out.push({ block: a[i]!, side: 'removed' });
      i++;
    }
  }
  // Within a change, what went comes before what replaced it.
  for (let k = 1; k < out.length; k++)
    if (out[k]!.side === 'removed' && out[k - 1]!.side === 'added') {
      let s = k;
      while (s > 0 && out[s - 1]!.side === 'added') s--;
      const [gone] = out.splice(k, 1);
      out.splice(s, 0, gone!);
    }
  return out;
}
