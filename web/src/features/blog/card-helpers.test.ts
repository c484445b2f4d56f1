import { describe, expect, test } from 'vitest';
import { legibleTextColor } from './card-helpers';

describe('legibleTextColor: the category label text that reads on its colour', () => {
  test('dark colours get white text, light ones black', () => {
    expect(legibleTextColor('#000000')).toBe('#ffffff');
    expect(legibleTextColor('#cf222e')).toBe('#ffffff');
    expect(legibleTextColor('#ffffff')).toBe('#000000');
    expect(legibleTextColor('#ffd700')).toBe('#000000');
    expect(legibleTextColor('#FFD700')).toBe('#000000');
  });

  test('a value that is not #rrggbb (no fill drawn) gets black text, as on the card itself', () => {
    expect(legibleTextColor('red')).toBe('#000000');
    expect(legibleTextColor('')).toBe('#000000');
  });
});
