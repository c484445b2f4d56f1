import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import { zipEntries, type ZipEntry } from '../zip/central-directory.js';
import { broken, tooLarge, XlsxUnreadable } from './errors.js';
import { newStats, type XlsxReadStats } from './stats.js';
import { XmlFeed, type Handler } from './xml.js';

/** Inflated part text per step: about 600 rows of a 17-column sheet. */
const PIECE = 256 * 1024;

/** The bytes of one zip entry as stored (compressed or not). */
function stored(buf: Buffer, e: ZipEntry): Buffer {
  const p = e.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw broken(`entry ${e.name}`);
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + e.compressedSize > buf.length) throw broken(`entry ${e.name}`);
  return buf.subarray(start, start + e.compressedSize);
}

/**
 * The parts of a workbook by name, each inflated as a stream under one budget for all of them:
 * the bytes that actually come out are counted, not what the zip's headers declare.
 */
export class Zip {
  private readonly entries = new Map<string, ZipEntry>();
  /** Bytes inflated so far, all parts together. */
  private inflated = 0;

  constructor(
    readonly buf: Buffer,
    /** Most bytes all the parts read may inflate to together, as they actually come out. */
    readonly maxBytes: number,
    readonly stats: XlsxReadStats = newStats(),
  ) {
    const list = zipEntries(buf, 10_000);
    if (!list) throw broken('no zip directory');
    // Part names are case-insensitive in OPC.
    for (const e of list) this.entries.set(e.name.toLowerCase(), e);
  }

  entry(name: string): ZipEntry | undefined {
    return this.entries.get(name.toLowerCase());
  }

  names(): string[] {
    return [...this.entries.values()].map((e) => e.name);
  }

  private count(name: string, n: number): void {
    this.inflated += n;
    this.stats.inflated = this.inflated;
    if (this.inflated > this.maxBytes) throw tooLarge(name, this.maxBytes);
  }

  /** A part's text in pieces as it inflates (a multi-byte character is never split; a BOM dropped). */
  async *stream(name: string): AsyncGenerator<string> {
    const e = this.entry(name);
    if (!e) throw broken(`missing ${name}`);
    const data = stored(this.buf, e);
    const decoder = new StringDecoder('utf8');
    let first = true;
    const text = (b: Buffer) => {
      const t = decoder.write(b);
      if (!first || !t) return t;
      first = false;
      return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
    };
    if (e.method === 0) {
      for (let i = 0; i < data.length; i += PIECE) {
        const b = data.subarray(i, i + PIECE);
        this.count(name, b.length);
        yield text(b);
      }
    } else if (e.method === 8) {
      const z = createInflateRaw({ chunkSize: PIECE });
      z.end(data);
      try {
        for await (const chunk of z as AsyncIterable<Buffer>) {
          this.count(name, chunk.length);
          yield text(chunk);
        }
      } catch (err) {
        if (err instanceof XlsxUnreadable) throw err;
        throw broken(`cannot inflate ${name}`);
      } finally {
        z.destroy();
      }
    } else throw broken(`compression method ${e.method}`);
    const rest = decoder.end();
    if (rest) yield rest;
  }

  /** Runs a whole part through a handler, streaming (until the handler is done); false when the zip has no such part. */
  async parse(name: string, h: Handler): Promise<boolean> {
    if (!this.entry(name)) return false;
    const feed = new XmlFeed(h, name, this.stats);
    for await (const piece of this.stream(name)) {
      feed.feed(piece);
      if (h.done) return true;
    }
    feed.end();
    return true;
  }
}

/** The most text a peek at a part's start inflates. */
const PEEK_OUT = 256 * 1024;

/** The start of a part as text (at most PEEK_OUT bytes: inflation stops there), or null when it cannot be read. */
export async function peek(zip: Zip, name: string): Promise<string | null> {
  const e = zip.entry(name);
  if (!e) return null;
  const data = stored(zip.buf, e);
  if (e.method === 0) return data.subarray(0, PEEK_OUT).toString('utf8');
  if (e.method !== 8) return null;
  const z = createInflateRaw({ chunkSize: 64 * 1024 });
  z.end(data);
  const out: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of z as AsyncIterable<Buffer>) {
      out.push(chunk);
      n += chunk.length;
      if (n >= PEEK_OUT) break;
    }
  } catch {
    return null; // broken: the reader says so
  } finally {
    z.destroy();
  }
  return Buffer.concat(out).subarray(0, PEEK_OUT).toString('utf8');
}
