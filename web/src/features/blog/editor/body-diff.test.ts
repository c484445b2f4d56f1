import { describe, expect, test } from 'vitest';
import { blockDiff } from './body-diff';

const p = (text: string, id = text) => ({ id, type: 'paragraph', data: { text } });
const doc = (...blocks: ReturnType<typeof p>[]) => ({ blocks });
const sides = (d: ReturnType<typeof blockDiff>) => d.map((x) => `${x.side}:${(x.block.data as { text: string }).text}`);

describe('two versions of a body, block by block', () => {
  test('the same body is all the same, whatever ids Editor.js gave its blocks', () => {
    expect(sides(blockDiff(doc(p('a', '1'), p('b', '2')), doc(p('a', 'x'), p('b', 'y'))))).toEqual([
      'same:a',
      'same:b',
    ]);
  });

  test('an added, a removed and a changed paragraph; the old text of a change before its new one', () => {
    expect(sides(blockDiff(doc(p('a'), p('b'), p('c')), doc(p('a'), p('B'), p('c'), p('d'))))).toEqual([
      'same:a',
      'removed:b',
      'added:B',
      'same:c',
      'added:d',
    ]);
  });

  test('from nothing, and to nothing', () => {
    expect(sides(blockDiff(null, doc(p('a'))))).toEqual(['added:a']);
    expect(sides(blockDiff(doc(p('a')), { blocks: [] }))).toEqual(['removed:a']);
  });

  test('paragraphs moved: the run both share stays, the rest is removed and added', () => {
    expect(sides(blockDiff(doc(p('a'), p('b'), p('c')), doc(p('c'), p('a'), p('b'))))).toEqual([
      'added:c',
      'same:a',
      'same:b',
      'removed:c',
    ]);
  });
});
