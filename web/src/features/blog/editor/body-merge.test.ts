import { describe, expect, it } from 'vitest';
import { mergedBody, sameBody, unionBlocks } from './body-merge';

const p = (text: string, id?: string) => ({ id, type: 'paragraph', data: { text } });
const doc = (...blocks: ReturnType<typeof p>[]) => ({ blocks });

describe('body-merge', () => {
  it('sameBody compares content, not the ids Editor.js gives blocks', () => {
    expect(sameBody(doc(p('a', 'x1'), p('b', 'x2')), doc(p('a', 'y1'), p('b', 'y2')))).toBe(true);
    expect(sameBody(doc(p('a')), doc(p('a'), p('b')))).toBe(false);
    expect(sameBody(doc(p('a')), doc(p('A')))).toBe(false);
  });

  const text = (x: { block: { data: unknown } }) => (x.block.data as { text: string }).text;

  it('takes what each side changed: my edit, their addition, and neither side’s old text', () => {
    const base = doc(p('はじめに'), p('本文'), p('日程'), p('おわりに'));
    const mine = doc(p('はじめに'), p('本文（私の修正）'), p('日程'), p('おわりに'));
    const theirs = doc(p('はじめに'), p('本文'), p('追記（保存された版）'), p('日程（変更）'), p('おわりに'));
    expect(unionBlocks(base, mine, theirs).map((x) => [x.side, text(x)])).toEqual([
      ['both', 'はじめに'],
      ['theirs', '追記（保存された版）'],
      ['theirs', '日程（変更）'],
      ['mine', '本文（私の修正）'],
      ['both', 'おわりに'],
    ]);
    expect(mergedBody(base, mine, theirs).blocks).toHaveLength(5);
  });

  it('a block both changed is kept in both versions', () => {
    const merged = unionBlocks(doc(p('a')), doc(p('a（私）')), doc(p('a（相手）')));
    expect(merged.map(text).sort()).toEqual(['a（相手）', 'a（私）']);
  });

  it('a saved block before any shared one goes first', () => {
    expect(unionBlocks(doc(p('b')), doc(p('b')), doc(p('a'), p('b'))).map((x) => x.side)).toEqual(['theirs', 'both']);
  });
});
