import { describe, expect, it } from 'vitest';
import { encodeRfc5987, FILE_CSP, fileResponseHeaders } from './index.js';

describe('fileResponseHeaders', () => {
  it('serves an image inline with nosniff, a sandboxing CSP and a private cache', () => {
    expect(fileResponseHeaders({ contentType: 'image/png', displayName: 'photo.png', size: 1234 })).toEqual({
      'Content-Type': 'image/png',
      'Content-Disposition': `inline; filename="photo.png"; filename*=UTF-8''photo.png`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy':
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox",
      'X-Frame-Options': 'SAMEORIGIN',
      'Cache-Control': 'private, no-cache',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Referrer-Policy': 'no-referrer',
      'Content-Length': '1234',
    });
  });

  it('serves a PDF inline under the same CSP (Chromium 156 shows PDFs in a sandboxed document), which runs nothing', () => {
    const h = fileResponseHeaders({ contentType: 'application/pdf', displayName: '議事録.pdf' });
    expect(h['Content-Type']).toBe('application/pdf');
    expect(h['Content-Disposition']).toBe(
      `inline; filename="file.pdf"; filename*=UTF-8''%E8%AD%B0%E4%BA%8B%E9%8C%B2.pdf`,
    );
    expect(h['Content-Security-Policy']).toBe(FILE_CSP);
    expect(FILE_CSP).toMatch(/default-src 'none'/);
    expect(FILE_CSP).not.toMatch(/script-src|unsafe-eval/);
  });

  it('sends text as an attachment with its charset, and anything unexpected as a download of bytes', () => {
    expect(
      fileResponseHeaders({ contentType: 'text/plain; charset=shift_jis', displayName: 'メモ.txt' }),
    ).toMatchObject({
      'Content-Type': 'text/plain; charset=shift_jis',
      'Content-Disposition': `attachment; filename="file.txt"; filename*=UTF-8''%E3%83%A1%E3%83%A2.txt`,
      'Content-Security-Policy': FILE_CSP,
    });
    expect(
      fileResponseHeaders({ contentType: 'text/plain; charset=utf-7', displayName: 'a.txt' })['Content-Type'],
    ).toBe('text/plain; charset=utf-8');
    for (const contentType of ['text/html', 'image/svg+xml', 'application/javascript', '']) {
      expect(fileResponseHeaders({ contentType, displayName: 'x.html' }), contentType).toMatchObject({
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': expect.stringMatching(/^attachment;/),
        'Content-Security-Policy': FILE_CSP,
      });
    }
  });

  it('forces a download when asked', () => {
    expect(
      fileResponseHeaders({ contentType: 'image/jpeg', displayName: 'a.jpg' }, { download: true })[
        'Content-Disposition'
      ],
    ).toMatch(/^attachment;/);
  });

  it('keeps mixed names readable in the ASCII fallback and cannot be used to inject headers', () => {
    expect(
      fileResponseHeaders({ contentType: 'image/png', displayName: '2026年 report "final"; v2 100%.png' })[
        'Content-Disposition'
      ],
    ).toBe(
      `inline; filename="2026_ report _final__ v2 100_.png"; filename*=UTF-8''2026%E5%B9%B4%20report%20%22final%22%3B%20v2%20100%25.png`,
    );
    const h = fileResponseHeaders({ contentType: 'image/png', displayName: 'a\r\nSet-Cookie: x=1\r\n.png' });
    expect(h['Content-Disposition']).not.toMatch(/[\r\n]/);
    expect(encodeRfc5987("it's (a) *test*")).toBe('it%27s%20%28a%29%20%2Atest%2A');
  });
});
