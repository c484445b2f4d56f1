import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data: Buffer | string;
  /** Stored instead of deflated. */
  store?: boolean;
  /** The uncompressed size the headers declare (default: the real one), to build lying zips. */
  declaredSize?: number;
}

/** A zip of the given parts in order (local headers, data, central directory), for tests. */
export function zipParts(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const raw = typeof p.data === 'string' ? Buffer.from(p.data) : p.data;
    const body = p.store ? raw : deflateRawSync(raw);
    const method = p.store ? 0 : 8;
    const size = p.declaredSize ?? raw.length;
    const crc = crc32(raw);
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
