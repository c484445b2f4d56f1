import { createInflateRaw } from 'node:zlib';
import { zipEntries } from './central-directory.js';
import { ZipBroken, ZipTooLarge } from './errors.js';

const bomb = (max: number) => new ZipTooLarge(`inflates past ${max} bytes`);

/**
 * Inflates every entry (discarding the output) and fails once more than `max` bytes come out, so a
 * central directory that lies about its sizes cannot make a parser inflate a bomb. Streams: the
 * memory used stays at one inflate window whatever the entry claims. On the way it counts the
 * `<row` elements of the worksheet a reader reads (`sheet.part`; the first by name when the
 * workbook does not say) for a progress bar's total. With `sheet.skip` that worksheet is not
 * inflated here at all (its row count is known otherwise, and the reader inflates it under the same
 * budget: inflating it a second time was a third of an import's read) and nothing is counted.
 * Throws ZipTooLarge (too many entries, too many bytes, an entry that cannot be found or is stored
 * another way) or ZipBroken (an entry that does not inflate).
 */
export async function inspectInflated(
  buf: Buffer,
  maxEntries: number,
  max: number,
  sheet: { part: string; skip: boolean } | null = null,
): Promise<{ sheetRows: number | null }> {
  const all = zipEntries(buf, maxEntries) ?? [];
  const firstByName = all
    .filter((e) => /^xl\/worksheets\/sheet\d*\.xml$/.test(e.name))
    .map((e) => e.name)
    .sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
  const counted = sheet ? (sheet.skip ? null : sheet.part) : (firstByName ?? null);
  const entries = sheet?.skip ? all.filter((e) => e.name !== sheet.part) : all;
  let total = 0;
  let sheetRows: number | null = null;
  for (const e of entries) {
    const p = e.localOffset;
    if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw bomb(max);
    const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    const counter = e.name === counted ? rowCounter() : null;
    if (e.method === 0) {
      total += data.length;
      counter?.add(data);
    } else if (e.method === 8) total += await inflatedLength(data, max - total, counter, max);
    else throw bomb(max);
    if (total > max) throw bomb(max);
    if (counter) sheetRows = counter.count;
  }
  return { sheetRows };
}

/** Counts `<row` in a byte stream (matches may straddle chunks). */
function rowCounter() {
  const needle = Buffer.from('<row');
  let tail: Buffer = Buffer.alloc(0);
  const scan = (b: Buffer, from: number, until: number) => {
    for (let i = b.indexOf(needle, from); i >= 0 && i < until; i = b.indexOf(needle, i + 4)) {
      const next = b[i + 4];
      if (next === 0x20 || next === 0x3e || next === 0x2f) c.count++; // '<row ' '<row>' '<row/'
    }
  };
  const c = {
    count: 0,
    add(chunk: Buffer) {
      // A match across the boundary: the previous chunk's last 4 bytes + this chunk's first 4 (no copy of the chunk).
      if (tail.length) scan(Buffer.concat([tail, chunk.subarray(0, 4)]), 0, tail.length);
      scan(chunk, 0, chunk.length);
      tail = Buffer.from((chunk.length >= 4 ? chunk : Buffer.concat([tail, chunk])).subarray(-4));
    },
  };
  return c;
}

function inflatedLength(
  data: Buffer,
  budget: number,
  counter: ReturnType<typeof rowCounter> | null,
  max: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const z = createInflateRaw();
    let n = 0;
    z.on('data', (chunk: Buffer) => {
      n += chunk.length;
      counter?.add(chunk);
      if (n > budget) {
        z.destroy();
        reject(bomb(max));
      }
    });
    z.on('end', () => resolve(n));
    z.on('error', () => reject(new ZipBroken('an entry does not inflate')));
    z.end(data);
  });
}
