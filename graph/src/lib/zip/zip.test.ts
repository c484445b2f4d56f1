import { describe, expect, it } from 'vitest';
import { deflatedFiller, zipParts } from '../../test/zip.js';
import { checkDeclaredSizes, zipEntries } from './central-directory.js';
import { ZipBroken, ZipTooLarge } from './errors.js';
import { inspectInflated } from './inflate-check.js';

const SHEET = 'xl/worksheets/sheet1.xml';
const rows = (n: number) =>
  `<sheetData>${Array.from({ length: n }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join('')}</sheetData>`;

describe('zipEntries (the central directory)', () => {
  it('lists every entry with its method, sizes and local header offset', () => {
    const buf = zipParts([
      { name: 'a.txt', data: 'hello' },
      { name: 'b.txt', data: 'stored', store: true },
    ]);
    const entries = zipEntries(buf, 10)!;
    expect(entries.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
      ['a.txt', 8, 5],
      ['b.txt', 0, 6],
    ]);
    expect(buf.readUInt32LE(entries[1]!.localOffset)).toBe(0x04034b50);
  });

  it('is null for bytes that are no zip, and refuses more entries than allowed', () => {
    expect(zipEntries(Buffer.from('not a zip at all, only text'), 10)).toBeNull();
    const many = zipParts(Array.from({ length: 5 }, (_, i) => ({ name: `p${i}`, data: 'x' })));
    expect(() => zipEntries(many, 4)).toThrow(ZipTooLarge);
    expect(zipEntries(many, 5)).toHaveLength(5);
  });
});

describe('checkDeclaredSizes', () => {
  it('refuses declared sizes past the budget, and Zip64 markers', () => {
    const entries = zipEntries(
      zipParts([
        { name: 'a', data: 'x'.repeat(100) },
        { name: 'b', data: 'y'.repeat(100) },
      ]),
      10,
    )!;
    expect(() => checkDeclaredSizes(entries, 200)).not.toThrow();
    expect(() => checkDeclaredSizes(entries, 199)).toThrow(ZipTooLarge);
    const zip64 = zipEntries(zipParts([{ name: 'a', data: 'x', declaredSize: 0xffffffff }]), 10)!;
    expect(() => checkDeclaredSizes(zip64, Number.MAX_SAFE_INTEGER)).toThrow(ZipTooLarge);
  });
});

describe('inspectInflated (what the entries really inflate to)', () => {
  it("counts the worksheet's rows while inflating every entry within the budget", async () => {
    const buf = zipParts([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: SHEET, data: `<worksheet>${rows(250)}</worksheet>` },
    ]);
    expect(await inspectInflated(buf, 10, 1 << 20)).toEqual({ sheetRows: 250 });
    // The named part, or none counted when it is skipped (not inflated at all).
    expect(await inspectInflated(buf, 10, 1 << 20, { part: SHEET, skip: false })).toEqual({ sheetRows: 250 });
    expect(await inspectInflated(buf, 10, 1 << 20, { part: SHEET, skip: true })).toEqual({ sheetRows: null });
  });

  it('fails once more bytes come out than allowed, whatever the headers declare', async () => {
    const filler = await deflatedFiller('<worksheet>', 4 << 20, '</worksheet>');
    const lying = zipParts([{ name: SHEET, data: filler, deflated: true, declaredSize: 100 }]);
    await expect(inspectInflated(lying, 10, 1 << 20)).rejects.toThrow(ZipTooLarge);
    await expect(inspectInflated(lying, 10, 8 << 20)).resolves.toEqual({ sheetRows: 0 });
  });

  it('says an entry that does not inflate is broken', async () => {
    const garbage = zipParts([
      { name: SHEET, data: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), deflated: true },
    ]);
    await expect(inspectInflated(garbage, 10, 1 << 20)).rejects.toThrow(ZipBroken);
  });
});
