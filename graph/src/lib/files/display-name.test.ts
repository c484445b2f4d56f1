import { describe, expect, it } from 'vitest';
import { safeDisplayName } from './index.js';

describe('safeDisplayName', () => {
  it('keeps Japanese names as they are', () => {
    expect(safeDisplayName('２０２６年度　社内報（４月号）.pdf')).toBe('２０２６年度　社内報（４月号）.pdf');
    expect(safeDisplayName('髙橋さん_送別会の写真 🎉.JPG')).toBe('髙橋さん_送別会の写真 🎉.JPG');
  });

  it('NFC-normalizes decomposed kana (as macOS sends them)', () => {
    expect(safeDisplayName('か\u3099いと\u3099.txt')).toBe('がいど.txt');
  });

  it('keeps only the last path segment', () => {
    expect(safeDisplayName('C:\\Users\\tanaka\\Desktop\\資料.pdf')).toBe('資料.pdf');
    expect(safeDisplayName('../../etc/passwd.txt')).toBe('passwd.txt');
    expect(safeDisplayName('/var/tmp/a.png')).toBe('a.png');
  });

  it('drops control, zero-width and direction-override characters and replaces reserved ones', () => {
    expect(safeDisplayName('re\u202Eport\u202Cgpj.exe.txt')).toBe('reportgpj.exe.txt');
    expect(safeDisplayName('a\r\nSet-Cookie: x=1\u0000.txt')).toBe('aSet-Cookie_ x=1.txt');
    expect(safeDisplayName('what?<b>"x"|y*.txt')).toBe('what__b__x__y_.txt');
    expect(safeDisplayName('zero\u200Bwidth\uFEFF.txt')).toBe('zerowidth.txt');
  });

  it('drops leading dots and trailing dots and spaces, collapses spaces', () => {
    expect(safeDisplayName('..hidden.txt')).toBe('hidden.txt');
    expect(safeDisplayName('.bashrc')).toBe('添付ファイル.bashrc');
    expect(safeDisplayName('name. . ')).toBe('name');
    expect(safeDisplayName('a    b\t\tc.txt')).toBe('a b c.txt');
  });

  it('never returns an empty name', () => {
    expect(safeDisplayName('.txt')).toBe('添付ファイル.txt');
    expect(safeDisplayName('\u202E', 'pdf')).toBe('添付ファイル.pdf');
    expect(safeDisplayName('', '')).toBe('添付ファイル');
    expect(safeDisplayName('dir/')).toBe('添付ファイル');
  });

  it('shortens long names to 120 characters keeping the extension and whole characters', () => {
    const long = `${'長'.repeat(200)}👨‍👩‍👧.pdf`;
    const name = safeDisplayName(long);
    expect(name.length).toBeLessThanOrEqual(120);
    expect(name).toBe(`${'長'.repeat(116)}.pdf`);
  });
});
