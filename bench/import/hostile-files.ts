/**
 * Writes the hostile spreadsheets of issue 21 (items 2 and 10) to a folder, to measure what reading
 * them costs: `node --conditions=source --import @swc-node/register/esm-register bench/import/hostile-files.ts <dir>`,
 * then for each file `node graph/dist/modules/import/import.hostile.child.js <file> <xlsx|xls>`
 * (after `node scripts/build-server.mjs`), which prints the rows read, the error and the peak RSS.
 * import.hostile.test.ts builds most of the same files and asserts on the peak.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { deflatedFiller, lyingWorkbook } from '@intranet/graph/fixtures';
const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const MB = 1024 * 1024;
const out = process.argv[2] ?? 'hostile';
mkdirSync(out, { recursive: true });
const xlsx = lyingWorkbook;
const HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><dimension ref="A1:B2"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>管理番号</t></is></c></row>`;
const TAIL = '</sheetData></worksheet>';
writeFileSync(`${out}/filler.xlsx`, xlsx(await deflatedFiller(HEAD, 40 * MB, TAIL)));
writeFileSync(`${out}/lying.xlsx`, xlsx(await deflatedFiller(HEAD, 400 * MB, TAIL)));
writeFileSync(
  `${out}/strings.xlsx`,
  xlsx(
    `${HEAD}<row r="2"><c r="A2" t="s"><v>0</v></c></row>${TAIL}`,
    await deflatedFiller(`<sst xmlns="${NS}">`, 250 * MB, '</sst>', '<si><t>a</t></si>'),
  ),
);
writeFileSync(
  `${out}/wide.xlsx`,
  xlsx(
    HEAD +
      Array.from({ length: 199_999 }, (_, i) => `<row r="${i + 2}"><c r="XFD${i + 2}"><v>${i}</v></c></row>`).join('') +
      TAIL,
  ),
);
writeFileSync(
  `${out}/wide20k.xlsx`,
  xlsx(
    HEAD +
      Array.from({ length: 19_999 }, (_, i) => `<row r="${i + 2}"><c r="XFD${i + 2}"><v>${i}</v></c></row>`).join('') +
      TAIL,
  ),
);
writeFileSync(
  `${out}/row1048576.xlsx`,
  xlsx(HEAD.replace('A1:B2', 'A1:B1048576') + '<row r="1048576"><c r="B1048576"><v>1</v></c></row>' + TAIL),
);
const data: XLSX.CellObject[][] = Array.from({ length: 65_536 }, (_, r) => [{ t: 'n', v: r } as XLSX.CellObject]);
data[0]![255] = { t: 'n', v: -1 };
const wb = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(wb, { '!ref': 'A1:IV65536', '!data': data } as XLSX.WorkSheet, 'パソコン');
writeFileSync(`${out}/rows65536.xls`, XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer);
