import { describe, expect, it } from 'vitest';
import { hasMagic } from './magic.js';

describe('hasMagic', () => {
  it('knows a zip and an OLE2 compound document by their first bytes, and nothing shorter', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
    const ole2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00]);
    expect([hasMagic(zip, 'zip'), hasMagic(zip, 'ole2'), hasMagic(ole2, 'ole2'), hasMagic(ole2, 'zip')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(hasMagic(Buffer.from([0x50, 0x4b, 0x03]), 'zip')).toBe(false);
    expect(hasMagic(Buffer.from('PK no zip'), 'zip')).toBe(false);
  });
});
