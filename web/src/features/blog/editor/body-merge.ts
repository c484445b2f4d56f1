import type { RichTextDocument } from '../../../components/rich-text/RichTextEditor';

/**
 * A post's body after an edit conflict, block by block: what each side changed, and a merge that
 * keeps what both wrote (nothing anyone typed or saved is dropped; the writer tidies up after).
 */

export interface Block {
  id?: string;
  type: string;
  data: unknown;
}

export const blocksOf = (doc: RichTextDocument | null | undefined) => (doc?.blocks ?? []) as Block[];
/** A block's content, whatever id Editor.js gave it. */
export const keyOf = (b: Block) => JSON.stringify({ type: b.type, data: b.data });

/** The same content, block for block. */
export function sameBody(a: RichTextDocument | null | undefined, b: RichTextDocument | null | undefined): boolean {
  const x = blocksOf(a);
  const y = blocksOf(b);
  return x.length === y.length && x.every((block, i) => keyOf(block) === keyOf(y[i]!));
}

export type Side = 'both' | 'mine' | 'theirs';

/**
 * A three-way merge by block: the writer's blocks in their order, less those the other side changed
 * or removed while the writer left them as they were; and each block the other side wrote that the
 * writer lacks, right after the block it follows in the saved body. A block both changed is there
 * twice (both versions), for the writer to keep one.
 */
export function unionBlocks(
  base: RichTextDocument,
  mine: RichTextDocument,
  theirs: RichTextDocument,
): { block: Block; side: Side }[] {
  const inBase = new Set(blocksOf(base).map(keyOf));
  const inTheirs = new Set(blocksOf(theirs).map(keyOf));
  const out: { block: Block; side: Side }[] = blocksOf(mine)
    .filter((block) => !(inBase.has(keyOf(block)) && !inTheirs.has(keyOf(block))))
    .map((block) => ({ block, side: inTheirs.has(keyOf(block)) ? 'both' : 'mine' }));
  const indexOf = (key: string) => out.findIndex((x) => keyOf(x.block) === key);
  let at = 0;
  for (const block of blocksOf(theirs)) {
    const found = indexOf(keyOf(block));
    if (found >= 0) {
      at = found + 1;
      continue;
    }
    if (inBase.has(keyOf(block))) continue; // the writer changed or removed it
    out.splice(at, 0, { block: { type: block.type, data: block.data }, side: 'theirs' });
    at++;
  }
  return out;
}

/** The merged body (unionBlocks). */
export function mergedBody(base: RichTextDocument, mine: RichTextDocument, theirs: RichTextDocument): RichTextDocument {
  return { blocks: unionBlocks(base, mine, theirs).map((x) => x.block) };
}

/** A block as plain text, to compare versions at a glance (a picture by its caption). */
export function blockText(block: Block): string {
  const d = (block.data ?? {}) as { text?: string; items?: unknown[]; caption?: string; file?: { url?: string } };
  const strip = (html: string) => {
    const el = document.createElement('div');
    el.innerHTML = html;
    return el.textContent ?? '';
  };
  if (block.type === 'list')
    return (d.items ?? [])
      .map((i) => `・${strip(typeof i === 'string' ? i : String((i as { content?: string }).content ?? ''))}`)
      .join('\n');
  if (block.type === 'image') return `［画像］${strip(d.caption ?? '')}`;
  return strip(d.text ?? '');
}
