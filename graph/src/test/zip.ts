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
    if (!z.write(left >= chunk.length ? chunk : chunk.subarray(0, left - (left % Buffer.byteLength(pattern))))) await new Promise((r) => z.once('drain', r));
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
