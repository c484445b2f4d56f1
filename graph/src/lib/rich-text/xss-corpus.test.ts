import { parse, parseFragment, serialize, type DefaultTreeAdapterTypes as T } from 'parse5';
import { describe, expect, it } from 'vitest';
import { fileKeyFromUrl } from '../files/file-key.js';
import {
  ALLOWED_TAGS,
  htmlToDocument,
  parseDocument,
  renderHtml,
  RichTextError,
  sanitizeInlineHtml,
  sanitizeRichHtml,
  type RichTextDocument,
} from './index.js';
import { XSS_PAYLOADS } from './xss-payloads.js';

/**
 * Every output is parsed the way a browser parses innerHTML of a <div> (parse5 implements the
 * WHATWG algorithm, foreign content and all) and every element and attribute is held against an
 * allow-list written here, apart from the library's, so widening the library's list fails this test.
 */
const TAGS = ['p', 'h1', 'h2', 'h3', 'ul', 'ol', 'li', 'figure', 'img', 'figcaption', 'b', 'i', 'u', 's', 'a', 'br'];
const INLINE = ['b', 'i', 'u', 's', 'a', 'br'];
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const ORIGIN = 'https://intranet.example';

const divContext = (() => {
  const doc = parse('<!DOCTYPE html><html><head></head><body><div></div></body></html>');
  const html = doc.childNodes.find((n) => n.nodeName === 'html') as T.Element;
  const body = html.childNodes.find((n) => n.nodeName === 'body') as T.Element;
  return body.childNodes[0] as T.Element;
})();

function urlProtocol(value: string): string {
  try {
    return new URL(value, `${ORIGIN}/blog/1`).protocol;
  } catch {
    return 'unparseable:';
  }
}

/** A mention: a path of this origin to one profile, nothing else (written here, not imported from the code under test). */
const isMention = (v: string) => /^\/profile\/[1-9]\d*$/.test(v) && new URL(v, ORIGIN).origin === ORIGIN;

function attributeProblem(tag: string, name: string, value: string, attrNs: string | undefined): string | null {
  if (attrNs) return `namespaced attribute ${name}`;
  const ok: Record<string, Record<string, (v: string) => boolean>> = {
    a: {
      href: (v) => ['http:', 'https:', 'mailto:'].includes(urlProtocol(v)) || isMention(v),
      rel: (v) => v === 'noopener noreferrer',
      target: (v) => v === '_blank',
    },
    ol: { start: (v) => /^[1-9]\d*$/.test(v), type: (v) => ['1', 'a', 'A', 'i', 'I'].includes(v) },
    img: {
      src: (v) => fileKeyFromUrl(v) !== null && new URL(v, ORIGIN).origin === ORIGIN,
      alt: () => true,
      loading: (v) => v === 'lazy',
    },
  };
  const check = ok[tag]?.[name];
  if (!check) return `attribute ${tag}[${name}]`;
  return check(value) ? null : `value ${tag}[${name}=${JSON.stringify(value)}]`;
}

/** Everything in `html` that is not on the allow-list, as a browser would build it. */
function violations(html: string, tags = TAGS): string[] {
  const found: string[] = [];
  const walk = (node: T.ChildNode) => {
    if (node.nodeName === '#text') return;
    if (node.nodeName === '#comment') {
      found.push('comment');
      return;
    }
    const el = node as T.Element;
    if (el.namespaceURI !== HTML_NS) found.push(`foreign element ${el.tagName} (${el.namespaceURI})`);
    if (!tags.includes(el.tagName)) found.push(`element ${el.tagName}`);
    for (const a of el.attrs) {
      const problem = attributeProblem(el.tagName, a.name, a.value, a.namespace);
      if (problem) found.push(problem);
    }
    const mention = isMention(el.attrs.find((a) => a.name === 'href')?.value ?? '');
    if (
      el.tagName === 'a' &&
      !mention &&
      !(el.attrs.some((a) => a.name === 'rel') && el.attrs.some((a) => a.name === 'target'))
    )
      found.push('link without rel/target');
    if (el.tagName === 'a' && mention && el.attrs.length !== 1) found.push('mention with more than its href');
    if (el.tagName === 'img' && !el.attrs.some((a) => a.name === 'src')) found.push('img without src');
    el.childNodes.forEach(walk);
  };
  const fragment = parseFragment(divContext, html, {});
  fragment.childNodes.forEach(walk);
  // A browser that serializes and parses again (innerHTML round trips: the mXSS route) must still see only allowed markup.
  if (!found.length) {
    const again = parseFragment(divContext, serialize(fragment), {});
    again.childNodes.forEach(walk);
  }
  return found;
}

const textsOf = (doc: RichTextDocument): string[] =>
  doc.blocks.flatMap((b) => {
    if (b.type === 'paragraph' || b.type === 'header') return [b.data.text];
    if (b.type === 'image') return [b.data.caption];
    const items = (list: typeof b.data.items): string[] => list.flatMap((i) => [i.content, ...items(i.items)]);
    return items(b.data.items);
  });

describe('XSS corpus', () => {
  it('holds enough payloads, and the allow-list is the one this test checks against', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(100);
    expect([...ALLOWED_TAGS].sort()).toEqual([...TAGS].sort());
  });

  it('the checker itself finds what it must (it is not vacuous)', () => {
    expect(violations('<img src=x onerror=alert(1)>')).toEqual(
      expect.arrayContaining(['attribute img[onerror]', 'value img[src="x"]']),
    );
    expect(violations('<a href="java&#x09;script:alert(1)">x</a>')).toContainEqual(
      expect.stringMatching(/^value a\[href=/),
    );
    expect(violations('<svg><p>x</p></svg>')).toContain('element svg');
    expect(violations('<!-- c -->')).toContain('comment');
    expect(violations('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>')).toContain(
      'attribute img[onerror]',
    );
  });

  describe.each(XSS_PAYLOADS.map((p, i) => [i, p] as const))('payload %i', (_i, payload) => {
    it('sanitized HTML holds only allowed markup, and sanitizing again changes nothing', () => {
      const out = sanitizeRichHtml(payload);
      expect(violations(out)).toEqual([]);
      expect(sanitizeRichHtml(out)).toBe(out);
    });

    it('converted to a document: every stored text and the rendered HTML hold only allowed markup', () => {
      const doc = htmlToDocument(payload);
      for (const text of textsOf(doc)) expect(violations(text, INLINE)).toEqual([]);
      expect(violations(renderHtml(doc))).toEqual([]);
    });

    it('as the text of every block of a document: stored texts and rendered HTML hold only allowed markup', () => {
      const doc = parseDocument({
        blocks: [
          { type: 'paragraph', data: { text: payload } },
          { type: 'header', data: { text: payload, level: 2 } },
          {
            type: 'list',
            data: { style: 'ordered', items: [{ content: payload, items: [{ content: payload, items: [] }] }] },
          },
          { type: 'image', data: { file: { url: '/files/blog/ok.png' }, caption: payload } },
        ],
      });
      for (const text of textsOf(doc)) expect(violations(text, INLINE)).toEqual([]);
      expect(violations(renderHtml(doc))).toEqual([]);
      expect(violations(sanitizeInlineHtml(payload), INLINE)).toEqual([]);
    });

    it('as an image URL it is refused', () => {
      const attempt = () =>
        parseDocument({ blocks: [{ type: 'image', data: { file: { url: payload }, caption: '' } }] });
      expect(attempt).toThrow(RichTextError);
    });

    it('a renderer handed an unchecked document still outputs only allowed markup', () => {
      const unchecked = {
        blocks: [
          { type: 'paragraph', data: { text: payload } },
          {
            type: 'image',
            data: {
              file: { url: payload },
              caption: payload,
              withBorder: false,
              withBackground: false,
              stretched: false,
            },
          },
        ],
      } as RichTextDocument;
      expect(violations(renderHtml(unchecked))).toEqual([]);
    });
  });

  it('keeps what is safe: text, allowed marks, http(s) and mailto links with our rel and target, our images', () => {
    expect(sanitizeRichHtml('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
    expect(sanitizeRichHtml('<a href="https://ok.example/" target="_self" rel="opener" onclick="x">社内</a>')).toBe(
      '<a href="https://ok.example/" rel="noopener noreferrer" target="_blank">社内</a>',
    );
    expect(sanitizeRichHtml('<a href="mailto:a@example.com">メール</a>')).toBe(
      '<a href="mailto:a@example.com" rel="noopener noreferrer" target="_blank">メール</a>',
    );
    expect(sanitizeRichHtml('<a href="javascript:alert(1)">リンク</a>')).toBe('リンク');
    expect(sanitizeRichHtml('<a href="//evil.example/">相対</a>')).toBe('相対');
    expect(sanitizeRichHtml('<b onmouseover=alert(1)>太字</b><script>alert(1)</script>')).toBe('<b>太字</b>');
    expect(sanitizeRichHtml('<img src="/files/blog/ok.png" alt="猫" onerror="x">')).toBe(
      '<img src="/files/blog/ok.png" alt="猫" />',
    );
    expect(sanitizeRichHtml('<img src="https://evil.example/x.png">本文')).toBe('本文');
    expect(sanitizeRichHtml('<div style="width: expression(alert(1))">本文</div>')).toBe('本文');
  });
});
