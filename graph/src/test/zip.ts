import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data: Buffer | string;
  /** Stored instead of deflated. */
  store?: boolean;
  /** The uncompressed size the headers declare (default: the real one), to build lying zips. */
  declaredSize?: number;
  /**
   * `data` is already deflated (raw deflate: a part too big to hold inflated, see deflatedFiller);
   * the headers declare `declaredSize` (default 0) and a CRC of 0.
   */
  deflated?: boolean;
}

/**
 * Raw deflate of `head`, then about `fill` bytes of `pattern` repeated (whole repeats; a space by
 * default), then `tail`: a part of hundreds of MB built without holding it inflated.
 */
export async function deflatedFiller(head: string, fill: number, tail: string, pattern = ' '): Promise<Buffer> {
  const z = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    z.on('end', resolve);
    z.on('error', reject);
  });
  const chunk = Buffer.from(pattern.repeat(Math.max(1, Math.floor((1 << 20) / Buffer.byteLength(pattern)))));
  z.write(head);
  for (let left = fill; left > 0; left -= chunk.length) {
    if (!z.write(left >= chunk.length ? chunk : chunk.subarray(0, left - (left % Buffer.byteLength(pattern)))))
      await new Promise((r) => z.once('drain', r));
  }
  z.end(tail);
  await ended;
  return Buffer.concat(out);
}

/** A zip of the given parts in order (local headers, data, central directory), for tests. */
export function zipParts(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const raw = typeof p.data === 'string' ? Buffer.from(p.data) : p.data;
    const body = p.store || p.deflated ? raw : deflateRawSync(raw);
    const method = p.store ? 0 : 8;
    const size = p.declaredSize ?? (p.deflated ? 0 : raw.length);
    const crc = p.deflated ? 0 : crc32(raw);
    const n = Buffer.from(p.name);
    // The fields both headers carry, in the same order: version needed, flags, method, time, date,
    // CRC-32, compressed and uncompressed size, name length (from offset 4 locally, 6 centrally).
    const common = (b: Buffer, at: number) => {
      b.writeUInt16LE(20, at);
      b.writeUInt16LE(method, at + 4);
      b.writeUInt32LE(crc, at + 10);
      b.writeUInt32LE(body.length, at + 14);
      b.writeUInt32LE(size, at + 18);
      b.writeUInt16LE(n.length, at + 22);
      return b;
    };
    const local = common(Buffer.alloc(30), 4);
    local.writeUInt32LE(0x04034b50, 0);
    const central = common(Buffer.alloc(46), 6);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, body);
    centrals.push(central, n);
    offset += 30 + n.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A workbook of one sheet 「パソコン」 (and shared strings), built from its parts as given: parts
 * given as Buffers are already deflated and claim `declared` bytes (1000 unless said), so a sheet
 * can lie about its size the way a zip bomb does.
 */
export function lyingWorkbook(sheet: Buffer | string, sst: Buffer | string | null = null, declared?: number): Buffer {
  const lie = (p: ZipPart): ZipPart => ({
    ...p,
    deflated: Buffer.isBuffer(p.data),
    declaredSize: declared ?? (Buffer.isBuffer(p.data) ? 1000 : undefined),
  });
  const rels =
    `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
    (sst ? `<Relationship Id="rId2" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` : '');
  const parts: ZipPart[] = [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: '_rels/.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="パソコン" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ];
  if (sst) parts.push({ name: 'xl/sharedStrings.xml', data: sst });
  return zipParts(parts.map(lie));
}
