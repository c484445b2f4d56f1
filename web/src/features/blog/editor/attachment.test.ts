import { describe, expect, it } from 'vitest';
import { ATTACHMENT_ACCEPT, ATTACHMENT_MAX_BYTES, checkAttachment, formatBytes } from './attachment';

describe('checkAttachment (the client pre-check of spec §5)', () => {
  it('accepts txt, pdf, png, jpg, jpeg and gif whatever the case of the extension', () => {
    expect(
      ['a.txt', 'b.PDF', 'c.png', 'd.Jpg', 'e.jpeg', 'f.gif', '報告書.v2.pdf'].map((name) =>
        checkAttachment({ name, size: 10 }),
      ),
    ).toEqual([null, null, null, null, null, null, null]);
  });

  it("refuses other types and names without an extension ('File type not allowed')", () => {
    expect(
      ['a.exe', 'b.svg', 'c.html', 'd.pdf.js', 'noext', 'trail.'].map((name) => checkAttachment({ name, size: 10 })),
    ).toEqual(['type', 'type', 'type', 'type', 'type', 'type']);
  });

  it("allows exactly 5 MB and refuses a byte more ('File size exceeds limit'); an empty file cannot be processed", () => {
    expect(ATTACHMENT_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(checkAttachment({ name: 'a.png', size: ATTACHMENT_MAX_BYTES })).toBeNull();
    expect(checkAttachment({ name: 'a.png', size: ATTACHMENT_MAX_BYTES + 1 })).toBe('size');
    expect(checkAttachment({ name: 'a.png', size: 0 })).toBe('empty');
  });

  it('the chooser offers the same extensions', () => {
    expect(ATTACHMENT_ACCEPT).toBe('.txt,.pdf,.png,.jpg,.jpeg,.gif');
  });

  it('formats sizes for people', () => {
    expect([512, 2048, 5 * 1024 * 1024].map(formatBytes)).toEqual(['512 B', '2.0 KB', '5.0 MB']);
  });
});
