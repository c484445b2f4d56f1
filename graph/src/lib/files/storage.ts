import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileKeyError } from './errors.js';
import { isFileKey } from './file-key.js';

export interface FileMeta {
  /** The checked content type; served as Content-Type. */
  contentType: string;
}

export interface StoredFile extends FileMeta {
  /** The bytes; read it to the end or destroy it (it holds an open file). */
  stream: Readable;
  size: number;
}

/** Where attachments and thumbnails live. Keys are made by newFileKey/thumbnailKey (file-key.ts). */
export interface FileStorage {
  /** Stores the bytes under the key, replacing what was there; readers see the old or the new file, never a part. */
  put(key: string, data: Uint8Array | Readable, meta: FileMeta): Promise<{ size: number }>;
  get(key: string): Promise<StoredFile | null>;
  /** Whether something was deleted. */
  delete(key: string): Promise<boolean>;
  exists(key: string): Promise<boolean>;
  /** Where the files are, for the log and the operator. */
  readonly description: string;
  /** Readies the store at start (the directory made; the bucket found); throws what an operator must fix. */
  open(): Promise<void>;
  /** For /readyz: null when the store answers, otherwise why not. */
  check(): Promise<string | null>;
  /** Removes what unfinished writes left behind (a killed upload's temporary files) older than the age; how many. */
  sweepUnfinished(olderThanMs?: number): Promise<number>;
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** A write's temporary files (put below), in `<root>/.tmp`: renamed into place when complete, left behind by a killed process. */
const TEMPORARY = /^[0-9a-f]{16}(\.meta)?\.tmp$/;
const TEMPORARY_DIR = '.tmp';

/** The directory files are kept in by default: `<DATA_DIR>/files`. */
export const defaultFilesRoot = (dataDir: string) => path.join(dataDir, 'files');

/**
 * Files on the local disk under one root. A key's file lives at `<root>/<h0h1>/<h2h3>/<key>` (h =
 * SHA-256 of the key), so no directory holds more than a small share of the files. Each file has
 * a `.meta.json` beside it; it is written before the file and the file is moved into place last,
 * both by rename from a temporary file in `<root>/.tmp` (the same file system), so a key exists only
 * when complete, and what a killed write leaves is found without walking the store.
 */
export class LocalFileStorage implements FileStorage {
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `directory ${this.root}`;
  }

  async open(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async check(): Promise<string | null> {
    try {
      await stat(this.root);
      return null;
    } catch (e) {
      return isMissing(e) ? `${this.root} is missing` : (e as Error).message;
    }
  }

  /** The path of a key's file; refuses anything that is not a key or would leave the root. */
  pathOf(key: string): string {
    if (!isFileKey(key)) throw new FileKeyError(`not a file key: ${JSON.stringify(String(key).slice(0, 300))}`);
    const h = createHash('sha256').update(key).digest('hex');
    const file = path.resolve(this.root, h.slice(0, 2), h.slice(2, 4), ...key.split('/'));
    // The key syntax already rules this out; a second lock on the same door costs nothing.
    if (!file.startsWith(this.root + path.sep)) throw new FileKeyError(`key leaves the store: ${key}`);
    return file;
  }

  async put(key: string, data: Uint8Array | Readable, meta: FileMeta): Promise<{ size: number }> {
    const file = this.pathOf(key);
    const tmpDir = path.join(this.root, TEMPORARY_DIR);
    await Promise.all([mkdir(path.dirname(file), { recursive: true }), mkdir(tmpDir, { recursive: true })]);
    const name = randomBytes(8).toString('hex');
    const tmp = path.join(tmpDir, `${name}.tmp`);
    const metaTmp = path.join(tmpDir, `${name}.meta.tmp`);
    try {
      const fh = await open(tmp, 'wx', 0o640);
      let size = 0;
      try {
        if (data instanceof Uint8Array) {
          await fh.writeFile(data);
          size = data.length;
        } else {
          for await (const chunk of data) {
            const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
            await fh.write(buf);
            size += buf.length;
          }
        }
        await fh.sync();
      } finally {
        await fh.close();
      }
      await writeFile(metaTmp, JSON.stringify({ contentType: meta.contentType }), { flag: 'wx', mode: 0o640 });
      await rename(metaTmp, `${file}.meta.json`);
      await rename(tmp, file);
      return { size };
    } catch (e) {
      await Promise.all([rm(tmp, { force: true }), rm(metaTmp, { force: true })]);
      throw e;
    }
  }

  /**
   * Removes the temporary files of writes that never finished (a process killed mid-upload leaves
   * them in `<root>/.tmp`), older than `olderThanMs` so no write in progress loses its file. Returns
   * how many were removed.
   */
  async sweepUnfinished(olderThanMs = 3_600_000, now = Date.now()): Promise<number> {
    const dir = path.join(this.root, TEMPORARY_DIR);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (isMissing(e)) return 0;
      throw e;
    }
    let removed = 0;
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (!e.isFile() || !TEMPORARY.test(e.name)) continue;
      if (now - (await stat(p).catch(() => ({ mtimeMs: now }))).mtimeMs <= olderThanMs) continue;
      await rm(p, { force: true });
      removed++;
    }
    return removed;
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.pathOf(key);
    let fh;
    try {
      fh = await open(file, 'r');
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
    try {
      const [{ size }, metaText] = await Promise.all([fh.stat(), readFile(`${file}.meta.json`, 'utf8')]);
      const meta = JSON.parse(metaText) as Partial<FileMeta>;
      const contentType = typeof meta.contentType === 'string' ? meta.contentType : 'application/octet-stream';
      return { stream: fh.createReadStream(), size, contentType };
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  async delete(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    let existed = true;
    try {
      await unlink(file);
    } catch (e) {
      if (!isMissing(e)) throw e;
      existed = false;
    }
    await rm(`${file}.meta.json`, { force: true });
    return existed;
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (e) {
      if (isMissing(e)) return false;
      throw e;
    }
  }
}
