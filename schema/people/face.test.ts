import { describe, expect, it } from 'vitest';
import { faceColour, hueOf, initialsOf } from './face.js';

describe('a face without a picture', () => {
  it('takes a Japanese name’s first character, a western name’s two initials, and keeps each person’s colour', () => {
    expect(initialsOf('山田 太郎')).toBe('山');
    expect(initialsOf('  ')).toBe('?');
    expect(initialsOf('john smith')).toBe('JS');
    expect(initialsOf('𠮷田 花子')).toBe('𠮷');
    expect(hueOf('山田 太郎')).toBe(hueOf('山田 太郎'));
    expect(hueOf('山田 太郎')).not.toBe(hueOf('山田 花子'));
    expect(faceColour('x')).toMatch(/^hsl\(\d+ 55% 30%\)$/);
  });
});
