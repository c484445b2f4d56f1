/**
 * A process that reads a file too big for a tiny reader heap (import.reader.test.ts runs it as a
 * child: a worker that runs out of memory must fail the read, and the process must carry on).
 * Prints the failure's message, then 'alive'.
 */
import ExcelJS from 'exceljs';
import { parsedRowsInWorker } from '../modules/devices/import.reader.js';

// Long distinct shared strings: exceljs keeps every one of them.
const wb = new ExcelJS.Workbook();
const ws = wb.addWorksheet('パソコン');
ws.addRow(['管理番号', 'メーカー']);
for (let i = 0; i < 6000; i++) ws.addRow([`BN-${i}`, `${'メーカー名'.repeat(400)}${i}`]);
const buf = Buffer.from(await wb.xlsx.writeBuffer());
const refs = { employees: new Map(), employeeByName: new Map(), locations: new Map(), departments: new Map(), officeAccounts: new Map(), suspendedAccounts: new Set<number>() };
try {
  let rows = 0;
  for await (const b of parsedRowsInWorker(buf, 'xlsx', 100_000, refs, { maxHeapMb: 16 })) rows += b.length;
  console.log(`read ${rows} rows`);
} catch (err) {
  console.log((err as Error).message);
}
let after = 0;
const small = new ExcelJS.Workbook();
small.addWorksheet('パソコン').addRows([['管理番号'], ['BN-1'], ['BN-2']]);
for await (const b of parsedRowsInWorker(Buffer.from(await small.xlsx.writeBuffer()), 'xlsx', 100, refs)) after += b.length;
console.log(`then ${after} rows`);
console.log('alive');
