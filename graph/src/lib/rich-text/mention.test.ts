import { describe, expect, it } from 'vitest';
import { mentionedIds, parseDocument, renderHtml } from './index.js';

const rendered = (text: string) => renderHtml(parseDocument({ blocks: [{ type: 'paragraph', data: { text } }] }));

describe('mentions in rich text', () => {
  it('a profile link whose text starts with @ is a mention; it keeps only its href', () => {
    const html = rendered('<a href="/profile/12" target="_blank" rel="opener" onclick="x">@山田 太郎</a>さん');
    expect(html).toBe('<p><a href="/profile/12">@山田 太郎</a>さん</p>');
    expect(mentionedIds(html)).toEqual([12]);
  });

  it('reads each person once, in order, also inside marks; a profile link without @ is only a link', () => {
    const html = rendered(
      '<b><a href="/profile/3">@A</a></b> <a href="/profile/2"><i>@B</i></a> <a href="/profile/3">@A</a> <a href="/profile/4">紹介</a>',
    );
    expect(mentionedIds(html)).toEqual([3, 2]);
  });

  it('any other path or URL to a profile is an ordinary link (new tab) or dropped, never a mention', () => {
    for (const href of ['/profile/1/edit', 'https://evil.example/profile/1', '/profile/01', '//x/profile/1']) {
      const html = rendered(`<a href="${href}">@x</a>`);
      expect(mentionedIds(html), href).toEqual([]);
    }
  });
});
