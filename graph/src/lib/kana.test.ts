import { describe, expect, it } from 'vitest';
import { hasKana, kanaToRomaji } from './kana.js';

describe('kanaToRomaji', () => {
  it('writes hiragana and katakana in Hepburn', () => {
    expect(kanaToRomaji('なかむら')).toBe('nakamura');
    expect(kanaToRomaji('ナカムラ')).toBe('nakamura');
    expect(kanaToRomaji('しょうた')).toBe('shouta');
    expect(kanaToRomaji('ちひろ')).toBe('chihiro');
    expect(kanaToRomaji('つよし')).toBe('tsuyoshi');
    expect(kanaToRomaji('ふじた')).toBe('fujita');
    expect(kanaToRomaji('じゅんいち')).toBe('junichi');
  });

  it('doubles the consonant after っ (tch before ch) and drops the long-vowel mark', () => {
    expect(kanaToRomaji('はっとり')).toBe('hattori');
    expect(kanaToRomaji('いっちょう')).toBe('itchou');
    expect(kanaToRomaji('サトー')).toBe('sato');
  });

  it('reads small vowels after ふ, て and ウ as one syllable', () => {
    expect(kanaToRomaji('フィリップ')).toBe('firippu');
    expect(kanaToRomaji('ティム')).toBe('timu');
    expect(kanaToRomaji('ウェイ')).toBe('wei');
  });

  it('leaves what is not kana as it is', () => {
    expect(kanaToRomaji('中村まこと')).toBe('中村makoto');
    expect(kanaToRomaji('abc')).toBe('abc');
    expect(hasKana('中村')).toBe(false);
    expect(hasKana('中村まこと')).toBe(true);
    expect(hasKana('ナカ')).toBe(true);
  });
});
