/**
 * The POSIX tar (ustar) format, streamed both ways: a backup of a database cluster is gigabytes,
 * so entries go through as file streams, never whole in memory. Regular files and directories only,
 * names up to 255 bytes (prefix + name), sizes up to 8 GiB (PostgreSQL's files are 1 GiB at most).
 */
import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';

const BLOCK = 512;

export interface TarEntry {
  name: string;
  type: 'file' | 'directory';
  size: number;
  mode: number;
  mtime: Date;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(e: TarEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  let name = e.name;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', name.length - 1);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
    if (cut < 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`tar: name too long: ${e.name}`);
  }
  if (e.size >= 8 * 1024 ** 3) throw new Error(`tar: file too large: ${e.name}`);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(e.mode & 0o7777, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(e.type === 'file' ? e.size : 0, 12), 124, 'ascii');
  h.write(octal(Math.floor(e.mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(e.type === 'file' ? '0' : '5', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

/** Writes entries to `out` (a gzip stream, say), waiting for it to drain. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private write(chunk: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.out.write(chunk, (err) => err && reject(err))) resolve();
      else this.out.once('drain', resolve);
    });
  }

  async directory(name: string, mode = 0o700, mtime = new Date()): Promise<void> {
    await this.write(header({ name: name.endsWith('/') ? name : `${name}/`, type: 'directory', size: 0, mode, mtime }));
  }

  async buffer(name: string, data: Buffer, mode = 0o600): Promise<void> {
    await this.write(header({ name, type: 'file', size: data.length, mode, mtime: new Date() }));
    await this.write(data);
    await this.pad(data.length);
  }

  /**
   * A file as it is on disk, opened before its header is written (so one removed meanwhile fails
   * cleanly, before any byte of it, and one removed while read is still read whole). A file that
   * grows while it is read (PostgreSQL writes on during a base backup; WAL replay repairs it) is cut
   * at the size it had; one that shrinks is padded with zeros. `onData` sees the bytes (a checksum).
   */
  async file(name: string, filePath: string, onData?: (b: Buffer) => void): Promise<void> {
    const fh = await open(filePath, 'r');
    try {
      const st = await fh.stat();
      const size = st.size;
      await this.write(header({ name, type: 'file', size, mode: st.mode, mtime: st.mtime }));
      let written = 0;
      if (size > 0) {
        for await (const chunk of fh.createReadStream({
          start: 0,
          end: size - 1,
          highWaterMark: 1 << 20,
          autoClose: false,
        }) as AsyncIterable<Buffer>) {
          onData?.(chunk);
          await this.write(chunk);
          written += chunk.length;
        }
      }
      if (written < size) {
        const zeros = Buffer.alloc(size - written);
        onData?.(zeros);
        await this.write(zeros);
      }
      await this.pad(size);
    } finally {
      await fh.close();
    }
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  /** The two zero blocks that end an archive. */
  async end(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

function readOctal(h: Buffer, at: number, len: number): number {
  const s = h
    .subarray(at, at + len)
    .toString('ascii')
    .replace(/\0.*$/s, '')
    .trim();
  return s ? parseInt(s, 8) : 0;
}

function readString(h: Buffer, at: number, len: number): string {
  const b = h.subarray(at, at + len);
  const end = b.indexOf(0);
  return b.subarray(0, end < 0 ? len : end).toString('utf8');
}

function parseHeader(h: Buffer): TarEntry | null {
  if (h.every((b) => b === 0)) return null;
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  if (sum !== readOctal(h, 148, 8)) throw new Error('tar: a header is damaged (checksum)');
  const prefix = readString(h, 345, 155);
  const name = readString(h, 0, 100);
  const flag = String.fromCharCode(h[156]!);
  if (flag !== '0' && flag !== '\0' && flag !== '5')
    throw new Error(`tar: unsupported entry type "${flag}" for ${name}`);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    type: flag === '5' ? 'directory' : 'file',
    size: readOctal(h, 124, 12),
    mode: readOctal(h, 100, 8),
    mtime: new Date(readOctal(h, 136, 12) * 1000),
  };
}

/**
 * Reads the entries of a tar stream in order. For each file, `onEntry` gets an async iterable of its
 * bytes and must consume it before returning.
 */
export async function readTar(
  input: Readable,
  onEntry: (e: TarEntry, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const it = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let buf: Buffer = Buffer.alloc(0);
  const fill = async (n: number): Promise<boolean> => {
    while (buf.length < n) {
      const next = await it.next();
      if (next.done) return false;
      buf = buf.length ? Buffer.concat([buf, next.value]) : next.value;
    }
    return true;
  };
  for (;;) {
    if (!(await fill(BLOCK))) throw new Error('tar: the archive ends early (no end marker)');
    const entry = parseHeader(buf.subarray(0, BLOCK));
    buf = buf.subarray(BLOCK);
    if (!entry) return;
    let left = entry.type === 'file' ? entry.size : 0;
    async function* body(): AsyncGenerator<Buffer> {
      while (left > 0) {
        if (!buf.length && !(await fill(1))) throw new Error(`tar: the archive ends inside ${entry!.name}`);
        const take = Math.min(left, buf.length);
        const part = buf.subarray(0, take);
        buf = buf.subarray(take);
        left -= take;
        yield part;
      }
    }
    await onEntry(entry, body());
    for await (const _ of body()); // whatever the handler left unread
    const padding = entry.type === 'file' && entry.size % BLOCK ? BLOCK - (entry.size % BLOCK) : 0;
    if (padding) {
      if (!(await fill(padding))) throw new Error('tar: the archive ends early');
      buf = buf.subarray(padding);
    }
  }
}
