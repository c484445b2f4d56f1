import { describe, expect, it } from 'vitest';
import { mentionQueryBefore, mentionsWritten, splitMentions } from './mention-text';

describe('mention text', () => {
  it('finds the @-query before the caret at a word start, never in a mail address', () => {
    expect(mentionQueryBefore('@')).toEqual({ query: '', at: 0 });
    expect(mentionQueryBefore('確認を @なかむ')).toEqual({ query: 'なかむ', at: 4 });
    expect(mentionQueryBefore('（@中村')).toEqual({ query: '中村', at: 1 });
    expect(mentionQueryBefore('a@example')).toBeNull();
    expect(mentionQueryBefore('@中村 さん')).toBeNull();
    expect(mentionQueryBefore('@' + 'あ'.repeat(31))).toBeNull();
    expect(mentionQueryBefore('メモ')).toBeNull();
  });

  it('keeps the mentions the text still writes out', () => {
    const chosen = [
      { id: 1, name: '中村 誠' },
      { id: 2, name: '佐藤 花子' },
    ];
    expect(mentionsWritten('@中村 誠 さん @中村 誠', chosen)).toEqual([1]);
    expect(mentionsWritten('@佐藤 花子 @中村 誠', chosen)).toEqual([1, 2]);
    expect(mentionsWritten('中村 誠', chosen)).toEqual([]);
  });

  it('cuts a text into plain parts and mentions, the longer name first', () => {
    const a = { id: 1, name: '中村' };
    const b = { id: 2, name: '中村 誠' };
    expect(splitMentions('こんにちは @中村 誠 さん、@中村さん a@b', [a, b])).toEqual([
      'こんにちは ',
      b,
      ' さん、',
      a,
      'さん a@b',
    ]);
    expect(splitMentions('なし', [])).toEqual(['なし']);
  });
});
