import { describe, expect, test } from 'vitest';
import { emptyForm } from './post-form';
import { draftOf, KEPT_ATTACHMENT_CHARS } from './use-post-draft';

const body = { blocks: [{ type: 'paragraph', data: { text: 'x' } }] };

describe('the draft the post editor keeps', () => {
  test('a chosen file small enough is kept with it', () => {
    const values = {
      ...emptyForm('2026-12-07'),
      attachment: { kind: 'new' as const, uid: '1', name: 'a.txt', type: 'text/plain', size: 3, dataUrl: 'data:,abc' },
    };
    expect(draftOf(values, body, null, null)).toEqual({ values, body, base: null, baseBody: null });
  });

  test('a chosen file too large for the browser leaves its name and the attachment the post had', () => {
    const stored = {
      kind: 'stored' as const,
      file: { name: 'old.pdf', type: 'application/pdf', size: 9, url: '/f/1', thumbnailUrl: null },
    };
    const base = { ...emptyForm('2026-12-07'), attachment: stored };
    const big = 'data:,' + 'a'.repeat(KEPT_ATTACHMENT_CHARS);
    const values = {
      ...base,
      title: 'T',
      attachment: { kind: 'new' as const, uid: '1', name: '大きい.png', type: 'image/png', size: 9, dataUrl: big },
    };
    const d = draftOf(values, body, base, body);
    expect(d.attachmentLeft).toBe('大きい.png');
    expect(d.values.attachment).toEqual(stored);
    expect(d.values.title).toBe('T');
  });
});
