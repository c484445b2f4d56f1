import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { zipParts, type ZipPart } from '../../test/zip.js';
import { CellError, type SheetRow } from './cell.js';
import { XlsxTooLarge, XlsxUnreadable } from './errors.js';
import { sheetOutline } from './outline.js';
import { sheetXmlRows } from './sheet-reader.js';
import { newStats } from './stats.js';
import { isDateFormat } from './styles.js';
import { xmlText } from './xml.js';
import { readFirstSheet, type XlsxReadOptions } from './xlsx-reader.js';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

async function rows(
  buf: Buffer,
  maxBytes = 64 * 1024 * 1024,
  more: Omit<XlsxReadOptions, 'maxBytes'> = {},
): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  for await (const b of readFirstSheet(buf, { maxBytes, ...more })) {
    expect(b.length).toBeGreaterThan(0);
    out.push(...b);
  }
  return out;
}

interface Pkg {
  sheets?: { name: string; xml: string }[];
  /** The workbook's tabs in order: [tab name, sheet part, state]. */
  tabs?: [string, string, string?][];
  sst?: string;
  styles?: string;
  workbookPr?: string;
  store?: boolean;
  /** The uncompressed size every part's headers declare (a lying zip). */
  declared?: number;
}

/** A hand-written package, so the test controls every byte of the XML. */
function pkg(p: Pkg): Buffer {
  const sheets = p.sheets ?? [];
  const tabs = p.tabs ?? sheets.map((s, i) => [`Sheet${i + 1}`, s.name] as [string, string, string?]);
  const rels = tabs.map(
    ([, part], i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="${part.replace(/^xl\//, '')}"/>`,
  );
  if (p.sst) rels.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  if (p.styles) rels.push(`<Relationship Id="rIdT" Type="${REL}/styles" Target="/xl/styles.xml"/>`);
  const parts: ZipPart[] = [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: '_rels/.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}">${p.workbookPr ?? ''}<sheets>${tabs.map(([n, , state], i) => `<sheet name="${n}" sheetId="${i + 1}"${state ? ` state="${state}"` : ''} r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
    },
    ...sheets.map((s) => ({ name: s.name, data: s.xml })),
  ];
  if (p.sst) parts.push({ name: 'xl/sharedStrings.xml', data: `<sst xmlns="${NS}">${p.sst}</sst>` });
  if (p.styles) parts.push({ name: 'xl/styles.xml', data: `<styleSheet xmlns="${NS}">${p.styles}</styleSheet>` });
  return zipParts(parts.map((x) => ({ ...x, store: p.store, declaredSize: p.declared })));
}

const sheet = (data: string, prefix = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${prefix}worksheet xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="${NS}"><${prefix}sheetData>${data}</${prefix}sheetData><${prefix}mergeCells count="0"/></${prefix}worksheet>`;

describe('readFirstSheet', () => {
  it('reads what exceljs writes: shared strings, rich text, numbers, dates, formulas (their cached result), blanks', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('パソコン');
    ws.addRow(['管理番号', 'メーカー', '使用者ID', '購入日', '備考', '有効']);
    ws.addRow([
      'BN-1',
      { richText: [{ text: '富士' }, { text: '通' }] },
      42,
      new Date(Date.UTC(2020, 0, 31)),
      { formula: 'A2&"x"', result: 'BN-1x' },
      true,
    ]);
    ws.addRow(['BN-2', 'Dell', null, new Date(Date.UTC(1999, 11, 31)), { formula: '1+1', result: 2 }, false]);
    ws.addRow([]);
    ws.getCell('C5').value = 7;
    const got = await rows(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(got).toEqual([
      { row: 1, cells: ['管理番号', 'メーカー', '使用者ID', '購入日', '備考', '有効'] },
      { row: 2, cells: ['BN-1', '富士通', 42, new Date(Date.UTC(2020, 0, 31)), 'BN-1x', 'TRUE'] },
      { row: 3, cells: ['BN-2', 'Dell', null, new Date(Date.UTC(1999, 11, 31)), 2, 'FALSE'] },
      { row: 5, cells: [null, null, 7] },
    ]);
  });

  it('reads what SheetJS writes: shared or inline strings, dates as serial numbers or ISO text', async () => {
    const aoa = [
      ['管理番号', 'メーカー', '購入日', '数', '可'],
      ['BN-1', '富士通 & <NEC>', new Date(Date.UTC(2024, 3, 1)), 3.5, true],
      ['BN-2', null, null, -1, false],
    ];
    for (const opts of [{ bookSST: true }, { bookSST: false }, { bookSST: true, cellDates: true }]) {
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa, { cellDates: true }), 'シート');
      const got = await rows(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', ...opts }) as Buffer);
      expect(got, JSON.stringify(opts)).toEqual([
        { row: 1, cells: aoa[0] },
        { row: 2, cells: ['BN-1', '富士通 & <NEC>', new Date(Date.UTC(2024, 3, 1)), 3.5, 'TRUE'] },
        { row: 3, cells: ['BN-2', null, null, -1, 'FALSE'] },
      ]);
    }
  });

  it('reads prefixed SpreadsheetML, rows and cells without references, gaps, inline strings of several runs, every cell type', async () => {
    const x = (s: string) => s.replace(/<(\/?)(?![?!])/g, '<$1x:');
    const data = x(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>管理番号</t></is></c><c r="C1" t="inlineStr"><is><r><t>メー</t></r><r><rPr><b/></rPr><t xml:space="preserve">カー </t></r></is></c></row>' +
        '<row><c t="str"><f>A1</f><v>a &amp; b &lt;c&gt; &#x3042;&#12354;</v></c><c t="b"><v>1</v></c><c t="e"><f>1/0</f><v>#DIV/0!</v></c><c t="d"><v>2024-04-01T00:00:00</v></c><c/><c t="n"><v>1.5e3</v></c></row>' +
        '<row r="5" spans="1:3"/>' +
        '<row r="7"><c r="B7" s="0"><v>12</v></c><c t="inlineStr"><is><t><![CDATA[1 & 2 > 0]]></t></is></c><!-- a comment --><c r="E7" t="s"><v>99</v></c></row>',
    );
    const got = await rows(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: sheet(data, 'x:') }] }));
    expect(got).toEqual([
      { row: 1, cells: ['管理番号', null, 'メーカー '] },
      {
        row: 2,
        cells: ['a & b <c> ああ', 'TRUE', new CellError('#DIV/0!'), new Date(Date.UTC(2024, 3, 1)), null, 1500],
      },
      { row: 5, cells: [] },
      { row: 7, cells: [null, 12, '1 & 2 > 0'] }, // shared string 99 does not exist: empty
    ]);
  });

  it('shared strings: runs joined, phonetic guides (furigana) left out, escapes decoded', async () => {
    const sst =
      '<si><t>田中</t><rPh sb="0" eb="2"><t>タナカ</t></rPh><phoneticPr fontId="1"/></si>' +
      '<si><r><t>山</t></r><r><rPr><sz val="11"/></rPr><t>田</t></r><rPh sb="0" eb="1"><t>ヤマ</t></rPh></si>' +
      '<si><t>1行目_x000D_&#10;2行目 &quot;引用&quot;</t></si><si><t/></si>';
    const xml = sheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>0</v></c></row>',
    );
    const got = await rows(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml }], sst }));
    expect(got[0].cells).toEqual(['田中', '山田', '1行目\r\n2行目 "引用"', '', '田中']);
  });

  it('dates: built-in and custom date formats (Japanese ones included), not number formats; the 1904 system', async () => {
    const styles =
      '<numFmts count="3"><numFmt numFmtId="176" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;;@"/><numFmt numFmtId="177" formatCode="[$-411]ggge&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/><numFmt numFmtId="178" formatCode="&quot;¥&quot;#,##0;[Red]\\-&quot;¥&quot;#,##0"/></numFmts>' +
      '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs count="7"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="31"/><xf numFmtId="57"/><xf numFmtId="176"/><xf numFmtId="177"/><xf numFmtId="178"/></cellXfs>';
    const serial = 45383; // 2024-04-01 in the 1900 system
    const cells = [0, 1, 2, 3, 4, 5, 6]
      .map((s, i) => `<c r="${String.fromCharCode(65 + i)}2" s="${s}"><v>${serial}</v></c>`)
      .join('');
    const formula = `<c r="H2" s="1"><f>TODAY()</f><v>${serial}</v></c>`;
    const xml = sheet(`<row r="2">${cells}${formula}</row>`);
    const d = new Date(Date.UTC(2024, 3, 1));
    expect((await rows(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml }], styles })))[0].cells).toEqual([
      serial,
      d,
      d,
      d,
      d,
      d,
      serial,
      d,
    ]);
    const in1904 = await rows(
      pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml }], styles, workbookPr: '<workbookPr date1904="1"/>' }),
    );
    expect(in1904[0].cells[1]).toEqual(new Date(Date.UTC(2028, 3, 2)));
  });

  it('the first visible tab is the sheet read, whatever its part is called; stored (uncompressed) entries read too', async () => {
    const first = sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>一枚目</t></is></c></row>');
    const second = sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>二枚目</t></is></c></row>');
    const sheets = [
      { name: 'xl/worksheets/sheet1.xml', xml: second },
      { name: 'xl/worksheets/data.xml', xml: first },
    ];
    const tabs: [string, string][] = [
      ['一覧', 'xl/worksheets/data.xml'],
      ['別', 'xl/worksheets/sheet1.xml'],
    ];
    expect((await rows(pkg({ sheets, tabs })))[0].cells).toEqual(['一枚目']);
    expect((await rows(pkg({ sheets, tabs, store: true })))[0].cells).toEqual(['一枚目']);
    // A hidden first tab (a lookup table, say) is passed over; a workbook of hidden tabs only reads its first.
    const hiddenFirst: [string, string, string?][] = [
      ['マスタ', 'xl/worksheets/sheet1.xml', 'hidden'],
      ['一覧', 'xl/worksheets/data.xml'],
    ];
    expect((await rows(pkg({ sheets, tabs: hiddenFirst })))[0].cells).toEqual(['一枚目']);
    const allHidden: [string, string, string?][] = [
      ['マスタ', 'xl/worksheets/sheet1.xml', 'veryHidden'],
      ['一覧', 'xl/worksheets/data.xml', 'hidden'],
    ];
    expect((await rows(pkg({ sheets, tabs: allHidden })))[0].cells).toEqual(['二枚目']);
  });

  it('a sheet far larger than one inflated piece: every row, multi-byte text across piece boundaries intact', async () => {
    const n = 20_000;
    const text = (i: number) => `株式会社テスト ${i} 号機 — ${'あ'.repeat(i % 17)}`;
    const data = Array.from(
      { length: n },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${text(i)}</t></is></c><c r="B${i + 1}"><v>${i}</v></c></row>`,
    ).join('');
    const got = await rows(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: sheet(data) }] }));
    expect(got).toHaveLength(n);
    for (let i = 0; i < n; i += 997) expect(got[i]).toEqual({ row: i + 1, cells: [text(i), i] });
    expect(got.every((r, i) => r.row === i + 1 && r.cells[0] === text(i))).toBe(true);
  });

  it('the same rows wherever the inflated pieces are cut: inside tags, quoted ">", values, references, CDATA, comments', () => {
    const xml = sheet(
      '<row r="1" x14ac:note="a > b"><c r="A1" t="inlineStr"><is><t>&#x3042;&amp;い&lt;</t></is></c><c r="B1"><v>12.5</v></c></row>' +
        '<!-- <row r="9"> in a comment --><row r="2"><c r="A2" t="inlineStr" x:q=\'x>y\'><is><t><![CDATA[<not a tag>]]></t></is></c><c r="C2" t="b"><v>0</v></c></row>' +
        '<row r="3"/><row r="4"><c r="AB4" t="str"><v>長い値 _x000D_ 改行</v></c></row>',
    );
    const whole = sheetXmlRows([xml]);
    expect(whole).toEqual([
      { row: 1, cells: ['あ&い<', 12.5] },
      { row: 2, cells: ['<not a tag>', null, 'FALSE'] },
      { row: 3, cells: [] },
      { row: 4, cells: [...Array<null>(27).fill(null), '長い値 \r 改行'] },
    ]);
    for (let i = 1; i < xml.length; i++)
      expect(sheetXmlRows([xml.slice(0, i), xml.slice(i)]), `cut at ${i}`).toEqual(whole);
    expect(sheetXmlRows(xml.split(''))).toEqual(whole); // one character at a time
  });

  it('refuses what is not a readable workbook: no zip, no workbook, a truncated sheet, a DTD, a part past the byte budget', async () => {
    const fail = (buf: Buffer, maxBytes?: number) => expect(rows(buf, maxBytes)).rejects.toThrow(XlsxUnreadable);
    await fail(Buffer.from('PK\x03\x04 not really'));
    await fail(zipParts([{ name: '[Content_Types].xml', data: '<Types/>' }]));
    await fail(
      pkg({
        sheets: [
          {
            name: 'xl/worksheets/sheet1.xml',
            xml: sheet('<row r="1"><c r="A1"><v>1</v></c></row>').slice(0, 150) + '<row r="2"><c r="A',
          },
        ],
      }),
    );
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>`;
    await fail(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: laughs }] }));
    const big = sheet(
      Array.from({ length: 5000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join(''),
    );
    await fail(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: big }] }), 10_000);
    await expect(rows(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: big }] }), 10_000)).rejects.toThrow(
      XlsxTooLarge,
    );
  });
});

describe('readFirstSheet on hostile files: memory bounded, work linear in the inflated bytes', () => {
  const MB = 1024 * 1024;
  const one = (xml: string, more: Partial<Pkg> = {}) =>
    pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml }], ...more });
  const read = async (buf: Buffer, maxBytes = 512 * MB, more: Omit<XlsxReadOptions, 'maxBytes' | 'stats'> = {}) => {
    const stats = newStats();
    try {
      return { stats, got: await rows(buf, maxBytes, { ...more, stats }), err: null };
    } catch (err) {
      return { stats, got: null, err };
    }
  };

  it('40 MB of whitespace after a row and 1 MB between two cells: both rows, each character scanned about once, nothing big carried between pieces', async () => {
    const xml = sheet(
      `<row r="1"><c r="A1"><v>1</v></c></row>${' '.repeat(40 * MB)}<row r="2"><c r="A2"><v>2</v></c>${'\n'.repeat(MB)}<c r="B2"><v>3</v></c></row>`,
    );
    const { stats, got, err } = await read(one(xml));
    expect(err).toBeNull();
    expect(got).toEqual([
      { row: 1, cells: [1] },
      { row: 2, cells: [2, 3] },
    ]);
    expect(stats.inflated).toBeGreaterThanOrEqual(xml.length);
    expect(stats.scanned).toBeLessThan(xml.length * 1.05); // quadratic: each piece re-scanned everything carried
    expect(stats.maxCarry).toBeLessThanOrEqual(64 * 1024);
  });

  it('a tag, a comment or a cell value longer than any real one is refused once past its bound, not carried to the end of the part', async () => {
    const filler = ' '.repeat(32 * MB);
    for (const bad of [
      `<row r="1"${filler}><c r="A1"><v>1</v></c></row>`,
      `<row r="1"><c r="A1" x="${filler}"><v>1</v></c></row>`,
      `<!--${filler}--><row r="1"><c r="A1"><v>1</v></c></row>`,
      `<row r="1"><c r="A1"><v>${filler}1</v></c></row>`,
      `<row r="1"><c r="A1" t="inlineStr"><is><t>${filler}</t></is></c></row>`,
    ]) {
      const { stats, err } = await read(one(sheet(bad)));
      expect(err, bad.slice(0, 40)).toBeInstanceOf(XlsxUnreadable);
      expect(stats.maxCarry, bad.slice(0, 40)).toBeLessThanOrEqual(64 * 1024);
      expect(stats.inflated, bad.slice(0, 40)).toBeLessThan(4 * MB); // stopped near the start, not at the end of the 32 MB
    }
  });

  it('a zip whose headers understate every size: refused as too large once the bytes actually inflated, all parts together, pass the budget', async () => {
    const max = 8 * MB;
    // One part alone past the budget.
    const alone = await read(
      one(sheet(`<row r="1"><c r="A1"><v>1</v></c></row>${' '.repeat(40 * MB)}`), { declared: 1000 }),
      max,
    );
    expect(alone.err).toBeInstanceOf(XlsxTooLarge);
    expect(alone.stats.inflated).toBeLessThanOrEqual(max + 512 * 1024);
    // Each part under the budget, together past it (shared strings 6 MB, then the sheet 6 MB).
    const sst = `<si><t>a</t></si>${' '.repeat(6 * MB)}`;
    const spread = await read(
      one(sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>${' '.repeat(6 * MB)}`), { sst, declared: 1000 }),
      max,
    );
    expect(spread.err).toBeInstanceOf(XlsxTooLarge);
    expect(spread.stats.inflated).toBeGreaterThan(max);
    expect(spread.stats.inflated).toBeLessThanOrEqual(max + 512 * 1024);
    // The same file within a budget that holds it reads.
    expect(
      (await read(one(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'), { sst, declared: 1000 }), max)).got,
    ).toEqual([{ row: 1, cells: ['a'] }]);
  });

  it('shared strings, styles and the workbook are streamed too: a 20 MB shared string table is never held whole; a table past its budget is refused', async () => {
    const n = 200_000;
    const sst = Array.from({ length: n }, (_, i) => `<si><t>文字列 ${i}</t></si>${' '.repeat(80)}`).join('');
    const styles = `<cellXfs count="1"><xf numFmtId="14"/></cellXfs>${' '.repeat(4 * MB)}`;
    const xml = sheet(
      `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>${n - 1}</v></c><c r="C1" s="0"><v>45383</v></c></row>`,
    );
    const ok = await read(one(xml, { sst, styles }));
    expect(ok.err).toBeNull();
    expect(ok.got).toEqual([{ row: 1, cells: ['文字列 0', `文字列 ${n - 1}`, new Date(Date.UTC(2024, 3, 1))] }]);
    expect(ok.stats.maxHeld).toBeLessThanOrEqual(MB);
    const tight = await read(one(xml, { sst }), 512 * MB, { maxSharedStringBytes: 1 * MB });
    expect(tight.err).toBeInstanceOf(XlsxTooLarge);
  });

  it('cells far to the right: no row array past column XFD, no batch holding more than a bounded number of cell slots', async () => {
    const data = Array.from({ length: 2000 }, (_, i) => `<row><c r="XFD${i + 1}"><v>${i}</v></c></row>`).join('');
    let slots = 0;
    let rowsSeen = 0;
    for await (const b of readFirstSheet(one(sheet(data)), { maxBytes: 64 * MB })) {
      // Slots held: the array elements there are (a long gap is a hole, not 16,383 nulls).
      slots = Math.max(
        slots,
        b.reduce((n, r) => n + r.cells.reduce<number>((k) => k + 1, 0), 0),
      );
      rowsSeen += b.length;
      expect(b[0].cells).toHaveLength(16_384);
      expect(b[0].cells[16383]).toBe(Number(b[0].row) - 1);
    }
    expect(rowsSeen).toBe(2000);
    expect(slots).toBeLessThanOrEqual((1 << 18) + 16_384);
    // A short gap is still nulls.
    expect(
      (
        await rows(one(sheet('<row r="1"><c r="A1"><v>1</v></c><c r="BM1"><v>2</v></c><c r="EZ1"><v>3</v></c></row>')))
      )[0].cells.slice(0, 66),
    ).toEqual([1, ...Array<null>(63).fill(null), 2, undefined]);
    // Past the last column Excel has: refused, not an array of billions of nulls.
    for (const r of ['XFE1', 'AAAAAAAAAAAA1'])
      await expect(rows(one(sheet(`<row r="1"><c r="${r}"><v>1</v></c></row>`)))).rejects.toThrow(XlsxUnreadable);
    await expect(rows(one(sheet(`<row r="1">${'<c><v>1</v></c>'.repeat(16385)}</row>`)))).rejects.toThrow(
      XlsxUnreadable,
    );
  });
});

describe('sheetOutline', () => {
  const withDimension = (ref: string, prefix = '') =>
    sheet('<row r="1"><c r="A1"><v>1</v></c></row>', prefix).replace(
      `<${prefix}sheetData>`,
      `<${prefix}dimension ref="${ref}"/><${prefix}sheetData>`,
    );

  it('names the first visible sheet and the last row its dimension declares, from the first bytes only', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('隠し', { state: 'hidden' }).addRow(['x']);
    const ws = wb.addWorksheet('パソコン');
    for (let i = 0; i < 1200; i++) ws.addRow([`BN-${i}`, 'Dell']);
    expect(await sheetOutline(Buffer.from(await wb.xlsx.writeBuffer()), 1 << 26)).toEqual({
      part: 'xl/worksheets/sheet2.xml',
      rows: 1200,
    });
    const one = (xml: string, store = false) =>
      sheetOutline(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml }], store }), 1 << 20);
    expect(await one(withDimension('A1:Q100001'))).toEqual({ part: 'xl/worksheets/sheet1.xml', rows: 100001 });
    expect(await one(withDimension('B3:C7', 'x:'))).toEqual({ part: 'xl/worksheets/sheet1.xml', rows: 7 });
    expect(await one(withDimension('A1'), true)).toEqual({ part: 'xl/worksheets/sheet1.xml', rows: 1 });
  });

  it("without a dimension before the data: an estimate from the sheet's size over its first rows (within 1 % for rows alike), nothing when too few rows to tell; null for what is not a workbook", async () => {
    const many = sheet(
      Array.from(
        { length: 3000 },
        (_, i) =>
          `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>BN-${String(i).padStart(6, '0')}</t></is></c></row>`,
      ).join(''),
    );
    const estimate = (await sheetOutline(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: many }] }), 1 << 22))!
      .rows!;
    expect(Math.abs(estimate - 3000) / 3000).toBeLessThan(0.01);
    const after = sheet('<row r="1"><c r="A1"><v>1</v></c></row>').replace(
      '<mergeCells',
      '<dimension ref="A1:A9"/><mergeCells',
    );
    expect(await sheetOutline(pkg({ sheets: [{ name: 'xl/worksheets/sheet1.xml', xml: after }] }), 1 << 20)).toEqual({
      part: 'xl/worksheets/sheet1.xml',
      rows: null,
    });
    expect(await sheetOutline(zipParts([{ name: '[Content_Types].xml', data: '<Types/>' }]), 1 << 20)).toBeNull();
    expect(await sheetOutline(Buffer.from('not a zip'), 1 << 20)).toBeNull();
  });
});

describe('isDateFormat and xmlText', () => {
  it('tells date and time formats from number formats', () => {
    for (const f of [
      'yyyy-mm-dd',
      'yyyy"年"m"月"d"日"',
      '[$-411]ggge"年"m"月"d"日"',
      'h:mm',
      'mm/dd/yy;@',
      'YYYY/MM/DD',
    ])
      expect(isDateFormat(f), f).toBe(true);
    for (const f of ['General', '0.00', '#,##0"円"', '"¥"#,##0;[Red]\\-"¥"#,##0', '0.00E+00', '@', '_(* #,##0_)'])
      expect(isDateFormat(f), f).toBe(false);
  });

  it('decodes the predefined and numeric entities only', () => {
    expect(xmlText('&lt;a&gt; &amp;amp; &quot;&apos; &#65;&#x42; &nbsp; &bogus;')).toBe(
      `<a> &amp; "' AB &nbsp; &bogus;`,
    );
  });
});
