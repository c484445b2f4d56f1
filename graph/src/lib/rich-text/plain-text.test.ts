import { describe, expect, it } from 'vitest';
import { EDITOR_OUTPUT } from './rich-text.test-support.js';
import { excerpt, inlineToText, parseDocument, toPlainText } from './index.js';

describe('plain text', () => {
  it('reads every text in order, one per line, entities decoded and <br> as a line break', () => {
    expect(toPlainText(parseDocument(EDITOR_OUTPUT))).toBe(
      [
        '総務部からのお知らせ',
        '来週の全社会議はオンラインで開催します。会議室Aは使いません。',
        '詳細は社内 Wikiをご覧ください。\n質問は総務まで。',
        '資料を読む',
        '第1章',
        '質問を送る',
        '会場の地図',
      ].join('\n'),
    );
    expect(inlineToText('A &amp; B &lt;c&gt; <b>太</b>')).toBe('A & B <c> 太');
  });

  it('bounds its length', () => {
    const doc = parseDocument({
      blocks: Array.from({ length: 50 }, () => ({ type: 'paragraph', data: { text: 'あ'.repeat(1000) } })),
    });
    expect(toPlainText(doc, 2500)).toHaveLength(2500);
    expect(toPlainText(doc).length).toBe(50 * 1000 + 49);
  });

  it('makes a one-line excerpt cut with an ellipsis, never inside an emoji or a combined character', () => {
    const doc = parseDocument(EDITOR_OUTPUT);
    expect(excerpt(doc, 20)).toBe('総務部からのお知らせ 来週の全社会議は…');
    expect(excerpt(doc, 20)).toHaveLength(20);
    const emoji = parseDocument({ blocks: [{ type: 'paragraph', data: { text: '家族👨‍👩‍👧で参加か\u3099' } }] });
    expect(excerpt(emoji, 4)).toBe('家族👨‍👩‍👧…');
    expect(excerpt(emoji, 100)).toBe('家族👨‍👩‍👧で参加か\u3099');
    expect(excerpt(parseDocument({ blocks: [] }))).toBe('');
  });
});
