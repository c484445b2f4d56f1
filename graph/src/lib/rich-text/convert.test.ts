import { describe, expect, it } from 'vitest';
import { EDITOR_OUTPUT } from './rich-text.test-support.js';
import {
  htmlToDocument,
  parseDocument,
  renderHtml,
  RichTextError,
  RICH_TEXT_LIMITS,
  type RichTextDocument,
} from './index.js';

/** What HTML carries of a document: not the block ids, the save time, or the image tool's display flags. */
const htmlPart = (doc: RichTextDocument) => ({
  blocks: doc.blocks.map(({ id: _id, ...b }) =>
    b.type === 'image' ? { ...b, data: { ...b.data, withBorder: false, withBackground: false, stretched: false } } : b,
  ),
});

describe('renderHtml', () => {
  it('writes each block as the allow-list HTML', () => {
    expect(renderHtml(parseDocument(EDITOR_OUTPUT))).toBe(
      '<h2>総務部からのお知らせ</h2>' +
        '<p>来週の<b>全社会議</b>は<i>オンライン</i>で<u>開催</u>します。<s>会議室A</s>は使いません。</p>' +
        '<p>詳細は<a href="https://intranet.example/wiki/meeting" rel="noopener noreferrer" target="_blank">社内 Wiki</a>をご覧ください。<br />質問は総務まで。</p>' +
        '<ol><li>資料を読む<ol><li>第1章</li></ol></li><li>質問を送る</li></ol>' +
        '<figure><img src="/files/blog/0f8e3c1a-7b2d-4c55-9a0e-3d1f2b4c5d6e.png" alt="会場の地図" loading="lazy" /><figcaption>会場の<b>地図</b></figcaption></figure>',
    );
  });

  it('writes an ordered list start and counter type, and an image without caption', () => {
    const doc = parseDocument({
      blocks: [
        {
          type: 'list',
          data: {
            style: 'ordered',
            meta: { start: 3, counterType: 'upper-roman' },
            items: [{ content: 'c', items: [] }],
          },
        },
        { type: 'list', data: { style: 'unordered', items: [{ content: 'a', items: [{ content: 'b', items: [] }] }] } },
        { type: 'image', data: { file: { url: '/files/blog/x.gif' } } },
      ],
    });
    expect(renderHtml(doc)).toBe(
      '<ol start="3" type="I"><li>c</li></ol><ul><li>a<ul><li>b</li></ul></li></ul><figure><img src="/files/blog/x.gif" alt="" loading="lazy" /></figure>',
    );
  });
});

describe('htmlToDocument', () => {
  it('round-trips a document through its HTML unchanged, Japanese included', () => {
    const doc = parseDocument(EDITOR_OUTPUT);
    expect(htmlToDocument(renderHtml(doc))).toEqual(htmlPart(doc));
    const japanese = parseDocument({
      blocks: [
        { type: 'header', data: { text: '２０２６年度　新入社員研修のご案内', level: 1 } },
        {
          type: 'paragraph',
          data: { text: '　皆さん、こんにちは。人事部の<b>髙橋</b>です。〜「研修」＆『懇親会』〜 ☕️👨‍👩‍👧' },
        },
        { type: 'paragraph', data: { text: '' } },
        {
          type: 'list',
          data: {
            style: 'ordered',
            meta: { start: 2, counterType: 'lower-alpha' },
            items: [{ content: 'ｶﾅ &amp; 漢字 &lt;タグ&gt;', items: [] }],
          },
        },
        { type: 'image', data: { file: { url: '/files/blog/a-b_c.jpg' }, caption: '研修会場（本社３階）' } },
      ],
    });
    expect(htmlToDocument(renderHtml(japanese))).toEqual(japanese);
  });

  it("renames other tools' marks and headings to ours", () => {
    const doc = htmlToDocument(
      '<p><strong>強</strong><em>斜</em><del>消</del><strike>線</strike><ins>下</ins></p><h4>小見出し</h4><h6>更に小</h6>',
    );
    expect(doc.blocks).toEqual([
      { type: 'paragraph', data: { text: '<b>強</b><i>斜</i><s>消</s><s>線</s><u>下</u>' } },
      { type: 'header', data: { text: '小見出し', level: 3 } },
      { type: 'header', data: { text: '更に小', level: 3 } },
    ]);
  });

  it('turns unknown block elements into paragraphs, keeping their text and order', () => {
    const doc = htmlToDocument(
      '前書き<div>一段落目</div><blockquote>引用</blockquote><section><div>入れ子</div>後</section><table><tr><td>セル1</td><td>セル2</td></tr></table><pre>整形\n済み</pre><span>地の文</span>',
    );
    expect(doc.blocks.map((b) => (b.type === 'paragraph' ? b.data.text : b.type))).toEqual([
      '前書き',
      '一段落目',
      '引用',
      '入れ子',
      '後',
      'セル1',
      'セル2',
      '整形 済み',
      '地の文',
    ]);
  });

  it('reads lists, nested lists, list items holding paragraphs, and loose items', () => {
    const doc = htmlToDocument(
      '<ul><li><p>一</p><p>二</p><ul><li>子</li></ul></li><ol><li>直下の入れ子</li></ol><li>三</li></ul><ol start="5" type="a"><li>五</li></ol>',
    );
    expect(doc.blocks).toEqual([
      {
        type: 'list',
        data: {
          style: 'unordered',
          meta: {},
          items: [
            {
              content: '一<br />二',
              meta: {},
              items: [
                { content: '子', meta: {}, items: [] },
                { content: '直下の入れ子', meta: {}, items: [] },
              ],
            },
            { content: '三', meta: {}, items: [] },
          ],
        },
      },
      {
        type: 'list',
        data: {
          style: 'ordered',
          meta: { start: 5, counterType: 'lower-alpha' },
          items: [{ content: '五', meta: {}, items: [] }],
        },
      },
    ]);
  });

  it('lifts list levels past the bound to the deepest allowed level, keeping every item', () => {
    const html = `${'<ul><li>x'.repeat(8)}${'</li></ul>'.repeat(8)}`;
    const doc = htmlToDocument(html);
    let level = doc.blocks[0]!.type === 'list' ? doc.blocks[0]!.data.items : [];
    let depth = 1;
    while (level[0]!.items.length) {
      level = level[0]!.items;
      depth++;
    }
    expect(depth).toBe(RICH_TEXT_LIMITS.maxListDepth);
    expect(level.map((i) => i.content)).toEqual(['x', 'x', 'x', 'x']);
  });

  it('keeps our images (with figcaption, or alt as caption) and drops anyone else’s', () => {
    const doc = htmlToDocument(
      '<p>前<img src="/files/blog/a.png" alt="猫 &amp; 犬">後</p><figure><img src="/files/blog/b.png"><figcaption>図<b>1</b></figcaption></figure><img src="https://evil.example/x.png"><p><img src="/files/blog/c.png">画像の後</p>',
    );
    expect(doc.blocks).toEqual([
      { type: 'paragraph', data: { text: '前' } },
      {
        type: 'image',
        data: {
          file: { url: '/files/blog/a.png' },
          caption: '猫 &amp; 犬',
          withBorder: false,
          withBackground: false,
          stretched: false,
        },
      },
      { type: 'paragraph', data: { text: '後' } },
      {
        type: 'image',
        data: {
          file: { url: '/files/blog/b.png' },
          caption: '図<b>1</b>',
          withBorder: false,
          withBackground: false,
          stretched: false,
        },
      },
      {
        type: 'image',
        data: {
          file: { url: '/files/blog/c.png' },
          caption: '',
          withBorder: false,
          withBackground: false,
          stretched: false,
        },
      },
      { type: 'paragraph', data: { text: '画像の後' } },
    ]);
  });

  it('collapses HTML whitespace but keeps U+3000 and no-break spaces, and keeps links with our rel and target', () => {
    const doc = htmlToDocument(
      '<p>\n  　字下げ  された\n文\u00a0です  <a href="https://example.com/a?b=1&amp;c=2" target="_self">リンク</a>\n</p>',
    );
    expect(doc.blocks[0]!.data).toEqual({
      text: '　字下げ された 文\u00a0です <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">リンク</a>',
    });
  });

  it('survives very deep nesting and bounds the input length', () => {
    const deep = `${'<div><b>'.repeat(5000)}深い${'</b></div>'.repeat(5000)}`;
    expect(
      htmlToDocument(deep).blocks.map((b) => (b.type === 'paragraph' ? b.data.text.replace(/<\/?b>/g, '') : b.type)),
    ).toEqual(['深い']);
    try {
      htmlToDocument('a'.repeat(RICH_TEXT_LIMITS.maxHtmlLength + 1));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RichTextError);
      expect((e as RichTextError).code).toBe('RICH_TEXT_TOO_LONG');
    }
  });

  it('gives an empty document for empty or whitespace-only HTML', () => {
    expect(htmlToDocument('')).toEqual({ blocks: [] });
    expect(htmlToDocument(' \n <span> </span>')).toEqual({ blocks: [] });
  });
});
