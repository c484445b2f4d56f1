import { tooLong, XlsxTooLarge } from './errors.js';
import { own, unescapeX, xmlText, type Handler } from './xml.js';
import type { Zip } from './zip-part.js';

/** The longest cell text or shared string (Excel's own limit is 32,767 characters). */
export const MAX_TEXT = 64 * 1024;
/** The shared string table's default budget (2 bytes a character, 6 an entry): 1 million strings of 13 characters. */
export const SHARED_STRING_BYTES = 32 * 1024 * 1024;

/**
 * The shared string table, packed: the strings' text joined into chunks of about CHUNK characters
 * (one string object per chunk, not per entry, and none of them holding an inflated piece alive)
 * and 6 bytes an entry for where each one is, in blocks of BLOCK entries (allocated as needed, never
 * copied). Within a byte budget: 2 bytes a character (what a string of non-Latin-1 text takes) and 6
 * an entry of the blocks allocated.
 */
export class StringTable {
  private static readonly CHUNK = 1 << 18;
  private static readonly BLOCK = 1 << 16;
  private readonly chunks: string[] = [];
  /** Where each chunk starts in the text of all entries. */
  private readonly chunkAt: number[] = [];
  private parts: string[] = [];
  private partsLength = 0;
  private total = 0;
  /** Entry i ends at ends[i] of the text of all entries (and starts where i - 1 ends), in chunk chunkOf[i]. */
  private readonly ends: Uint32Array[] = [];
  private readonly chunkOf: Uint16Array[] = [];
  private n = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.n;
  }

  push(t: string): void {
    const B = StringTable.BLOCK;
    const blocks = this.ends.length + (this.n % B === 0 ? 1 : 0);
    if ((this.total + t.length) * 2 + blocks * B * 6 > this.maxBytes)
      throw new XlsxTooLarge(`not a readable .xlsx: the shared strings take more than ${this.maxBytes} bytes`);
    if (this.n % B === 0) {
      this.ends.push(new Uint32Array(B));
      this.chunkOf.push(new Uint16Array(B));
    }
    if (this.partsLength + t.length > StringTable.CHUNK && this.partsLength > 0) this.seal();
    this.parts.push(t);
    this.partsLength += t.length;
    this.total += t.length;
    const b = this.n >>> 16;
    const k = this.n & (B - 1);
    this.ends[b]![k] = this.total;
    this.chunkOf[b]![k] = this.chunks.length;
    this.n++;
  }

  /** The entry's text (undefined past the end). */
  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.n)) return undefined;
    const c = this.chunkOf[i >>> 16]![i & (StringTable.BLOCK - 1)]!;
    if (c === this.chunks.length) this.seal();
    const at = this.chunkAt[c]!;
    const start = i === 0 ? 0 : this.ends[(i - 1) >>> 16]![(i - 1) & (StringTable.BLOCK - 1)]!;
    return this.chunks[c]!.slice(start - at, this.ends[i >>> 16]![i & (StringTable.BLOCK - 1)]! - at);
  }

  private seal(): void {
    this.chunkAt.push(this.total - this.partsLength);
    // join copies: the chunk holds none of the pieces its parts were cut from.
    this.chunks.push(this.parts.length === 1 ? own(this.parts[0]!) : this.parts.join(''));
    this.parts = [];
    this.partsLength = 0;
  }
}

/** The shared string table: each `<si>`'s text (its runs joined; phonetic guides left out). */
export async function sharedStrings(zip: Zip, part: string | null, maxBytes: number): Promise<StringTable> {
  const out = new StringTable(maxBytes);
  if (part === null) return out;
  let text = '';
  let phonetic = 0;
  const h: Handler = {
    wantsText: false,
    done: false,
    open(name) {
      if (name === 'si') text = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) this.wantsText = true;
    },
    close(name) {
      if (name === 't') this.wantsText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        out.push(unescapeX(text));
        text = '';
      }
    },
    text(raw, cdata) {
      text += cdata ? raw : xmlText(raw);
      if (text.length > MAX_TEXT) throw tooLong('a shared string', MAX_TEXT);
    },
  };
  await zip.parse(part, h);
  return out;
}
