import { describe, expect, it } from 'vitest';
import { imageUrls, parseDocument, RichTextError, RICH_TEXT_LIMITS, type RichTextErrorCode } from './index.js';
import { EDITOR_OUTPUT } from './rich-text.test-support.js';

function refusal(
  input: unknown,
  options?: Parameters<typeof parseDocument>[1],
): { code: RichTextErrorCode; path: string; message: string } {
  try {
    parseDocument(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(RichTextError);
    const err = e as RichTextError;
    return { code: err.code, path: err.path, message: err.message };
  }
  throw new Error('accepted');
}

const para = (text: string) => ({ type: 'paragraph', data: { text } });

describe('parseDocument', () => {
  it('accepts what the editor saves and returns its normalized stored form', () => {
    const doc = parseDocument(EDITOR_OUTPUT);
    expect(doc.time).toBe(EDITOR_OUTPUT.time);
    expect(doc.version).toBe('2.31.0');
    expect(doc.blocks.map((b) => b.type)).toEqual(['header', 'paragraph', 'paragraph', 'list', 'image']);
    expect(doc.blocks[0]).toEqual({ id: 'h1xYz', type: 'header', data: { text: '総務部からのお知らせ', level: 2 } });
    // The underline tool's class is not ours to keep; every mark the editor writes is.
    expect(doc.blocks[1]!.data).toEqual({
      text: '来週の<b>全社会議</b>は<i>オンライン</i>で<u>開催</u>します。<s>会議室A</s>は使いません。',
    });
    expect(doc.blocks[2]!.data).toEqual({
      text: '詳細は<a href="https://intranet.example/wiki/meeting" rel="noopener noreferrer" target="_blank">社内 Wiki</a>をご覧ください。<br />質問は総務まで。',
    });
    expect(doc.blocks[3]).toEqual({
      id: 'l1',
      type: 'list',
      data: {
        style: 'ordered',
        meta: {},
        items: [
          { content: '資料を読む', meta: {}, items: [{ content: '第1章', meta: {}, items: [] }] },
          { content: '質問を送る', meta: {}, items: [] },
        ],
      },
    });
    // Fields the image tool's uploader added (size) are not stored.
    expect(doc.blocks[4]!.data).toEqual({
      file: { url: '/files/blog/0f8e3c1a-7b2d-4c55-9a0e-3d1f2b4c5d6e.png' },
      caption: '会場の<b>地図</b>',
      withBorder: false,
      withBackground: false,
      stretched: true,
    });
    expect(imageUrls(doc)).toEqual(['/files/blog/0f8e3c1a-7b2d-4c55-9a0e-3d1f2b4c5d6e.png']);
  });

  it('is idempotent: the stored form parses to itself', () => {
    const once = parseDocument(EDITOR_OUTPUT);
    expect(parseDocument(once)).toEqual(once);
    expect(parseDocument(JSON.stringify(once))).toEqual(once);
  });

  it('keeps Japanese text exactly, full-width spaces, no-break spaces and emoji included', () => {
    const text = '　社内報　第１２号：「新しい働き方」について🎉 —— 髙橋・﨑田 ｶﾀｶﾅ ①②\u00a0終';
    expect(parseDocument({ blocks: [para(text)] }).blocks[0]!.data).toEqual({ text });
  });

  it('reduces stored texts to the inline allow-list, keeping their text', () => {
    const doc = parseDocument({
      blocks: [
        para('<span style="color:red">赤</span><script>alert(1)</script><img src=x onerror=alert(1)><h1>大</h1>'),
      ],
    });
    expect(doc.blocks[0]!.data).toEqual({ text: '赤大' });
  });

  it("drops what the browser's editing leaves behind and nobody sees: a line's closing <br> and empty marks", () => {
    // Enter at the end of bold text can leave the bold carried into a closing <br> (seen in Chromium).
    const doc = parseDocument({
      blocks: [
        para('<b>重要</b><b><br></b>'),
        para('連絡<br>'),
        para('<i></i>本文<s><b></b></s>'),
        { type: 'header', data: { text: '持ち物<br/>', level: 2 } },
      ],
    });
    expect(doc.blocks.map((b) => (b.data as { text: string }).text)).toEqual(['<b>重要</b>', '連絡', '本文', '持ち物']);
    // A <br> that draws a line stays: one between lines, the second of two at the end (an empty last
    // line), and the only content of a paragraph (a blank line the author made).
    const kept = parseDocument({ blocks: [para('一行目<br>二行目'), para('一行目<br><br>'), para('<br>')] });
    expect(kept.blocks.map((b) => (b.data as { text: string }).text)).toEqual([
      '一行目<br />二行目',
      '一行目<br /><br />',
      '<br />',
    ]);
    // List items and captions are texts too.
    const list = parseDocument({
      blocks: [
        { type: 'list', data: { style: 'unordered', items: [{ content: '<u>項目</u><u><br></u>', items: [] }] } },
      ],
    });
    expect((list.blocks[0]!.data as { items: { content: string }[] }).items[0]!.content).toBe('<u>項目</u>');
  });

  it('takes an empty document and a list without meta (unordered)', () => {
    expect(parseDocument({ blocks: [] })).toEqual({ blocks: [] });
    const doc = parseDocument({
      blocks: [{ type: 'list', data: { style: 'unordered', items: [{ content: 'a', items: [] }] } }],
    });
    expect(doc.blocks[0]!.data).toEqual({
      style: 'unordered',
      meta: {},
      items: [{ content: 'a', meta: {}, items: [] }],
    });
  });

  it('refuses what is not a document, naming where', () => {
    expect(refusal(null).code).toBe('RICH_TEXT_MALFORMED');
    expect(refusal('not json').code).toBe('RICH_TEXT_MALFORMED');
    expect(refusal({ blocks: 'x' })).toMatchObject({ code: 'RICH_TEXT_MALFORMED', path: '.blocks' });
    expect(refusal({ blocks: [{ type: 'paragraph', data: { text: 1 } }] })).toMatchObject({
      code: 'RICH_TEXT_MALFORMED',
      path: 'blocks[0].data.text',
    });
    expect(refusal({ blocks: [{ type: 'header', data: { text: 'x' } }] })).toMatchObject({
      code: 'RICH_TEXT_MALFORMED',
      path: 'blocks[0].data.level',
    });
    expect(refusal({ blocks: [{ id: '../x', type: 'paragraph', data: { text: 'x' } }] }).code).toBe(
      'RICH_TEXT_MALFORMED',
    );
    expect(
      refusal({
        blocks: [{ type: 'list', data: { style: 'ordered', items: [{ content: 'a', items: [{ items: [] }] }] } }],
      }),
    ).toMatchObject({
      code: 'RICH_TEXT_MALFORMED',
      path: 'blocks[0].data.items[0].items[0].content',
    });
    expect(refusal(null).message).toMatch(/本文の形式が正しくありません/);
  });

  it('refuses blocks and styles the blog does not have', () => {
    expect(refusal({ blocks: [para('a'), { type: 'raw', data: { html: '<script></script>' } }] })).toMatchObject({
      code: 'RICH_TEXT_UNSUPPORTED_BLOCK',
      path: 'blocks[1].type',
    });
    expect(refusal({ blocks: [{ type: 'header', data: { text: 'x', level: 4 } }] })).toMatchObject({
      code: 'RICH_TEXT_UNSUPPORTED_BLOCK',
      path: 'blocks[0].data.level',
    });
    const checklist = refusal({
      blocks: [
        { type: 'list', data: { style: 'checklist', items: [{ content: 'x', meta: { checked: true }, items: [] }] } },
      ],
    });
    expect(checklist).toMatchObject({ code: 'RICH_TEXT_UNSUPPORTED_BLOCK', path: 'blocks[0].data.style' });
    expect(checklist.message).toMatch(/チェックリスト/);
  });

  it('refuses images that are not files of ours', () => {
    for (const url of [
      'https://evil.example/x.png',
      'javascript:alert(1)',
      '/files/../secret',
      '//evil.example/files/blog/x.png',
      '/files/blog/x.png?y',
      'data:image/png;base64,AAAA',
    ]) {
      expect(refusal({ blocks: [{ type: 'image', data: { file: { url }, caption: '' } }] })).toMatchObject({
        code: 'RICH_TEXT_IMAGE_NOT_ALLOWED',
        path: 'blocks[0].data.file.url',
      });
    }
    const custom = parseDocument(
      { blocks: [{ type: 'image', data: { file: { url: '/x/1.png' } } }] },
      { isAllowedImageUrl: (u) => u.startsWith('/x/') },
    );
    expect(custom.blocks[0]!.data).toMatchObject({ file: { url: '/x/1.png' }, caption: '' });
  });

  it('bounds the number of blocks, before reading them', () => {
    const blocks = Array.from({ length: RICH_TEXT_LIMITS.maxBlocks }, () => para('a'));
    expect(parseDocument({ blocks }).blocks).toHaveLength(RICH_TEXT_LIMITS.maxBlocks);
    const over = refusal({ blocks: [...blocks, { type: 'nonsense' }] });
    expect(over).toMatchObject({ code: 'RICH_TEXT_TOO_MANY_BLOCKS', path: 'blocks' });
    expect(over.message).toBe('本文のブロックが多すぎます（上限 500 個）。');
  });

  it('bounds one text and all texts together', () => {
    const max = RICH_TEXT_LIMITS.maxTextLength;
    expect(() => parseDocument({ blocks: [para('あ'.repeat(max))] })).not.toThrow();
    expect(refusal({ blocks: [para('a'), para('あ'.repeat(max + 1))] })).toMatchObject({
      code: 'RICH_TEXT_TOO_LONG',
      path: 'blocks[1].data.text',
    });
    const many = Array.from({ length: 11 }, () => para('あ'.repeat(max)));
    expect(refusal({ blocks: many })).toMatchObject({ code: 'RICH_TEXT_TOO_LONG', path: 'blocks[10].data.text' });
    expect(refusal({ blocks: [para('abc')] }, { limits: { maxTotalLength: 2 } }).message).toBe(
      '本文が長すぎます（上限 2 文字）。',
    );
  });

  it('bounds list nesting (5 levels) and list items, without recursing into what is past the bound', () => {
    const nested = (depth: number): unknown => ({ content: `L${depth}`, items: depth > 1 ? [nested(depth - 1)] : [] });
    const list = (depth: number) => ({
      blocks: [{ type: 'list', data: { style: 'unordered', items: [nested(depth)] } }],
    });
    expect(() => parseDocument(list(5))).not.toThrow();
    expect(refusal(list(6))).toMatchObject({
      code: 'RICH_TEXT_TOO_DEEP',
      message: 'リストの入れ子が深すぎます（上限 5 段）。',
    });
    // 100,000 levels deep: refused at level 6, no stack overflow.
    let deep: unknown = { content: 'x', items: [] };
    for (let i = 0; i < 100_000; i++) deep = { content: 'x', items: [deep] };
    expect(refusal({ blocks: [{ type: 'list', data: { style: 'unordered', items: [deep] } }] }).code).toBe(
      'RICH_TEXT_TOO_DEEP',
    );
    const wide = {
      blocks: [
        {
          type: 'list',
          data: {
            style: 'unordered',
            items: Array.from({ length: RICH_TEXT_LIMITS.maxListItems + 1 }, () => ({ content: 'x', items: [] })),
          },
        },
      ],
    };
    expect(refusal(wide).code).toBe('RICH_TEXT_TOO_MANY_BLOCKS');
  });
});
