import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultFilesRoot,
  FileKeyError,
  fileKeyFromUrl,
  fileUrl,
  isFileKey,
  LocalFileStorage,
  newFileKey,
  thumbnailKey,
} from './index.js';
import { fileStorageContract, TRAVERSALS } from './storage-contract.js';

/** Every file under a directory, relative. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('file keys and URLs', () => {
  it('takes the keys it makes and refuses anything that could name another path', () => {
    const key = newFileKey('blog', 'png');
    expect(key).toMatch(/^blog\/[0-9a-f-]{36}\.png$/);
    expect(isFileKey(key)).toBe(true);
    expect(isFileKey(thumbnailKey(key))).toBe(true);
    expect(thumbnailKey('blog/abc.png')).toBe('blog/abc-thumb.webp');
    for (const bad of TRAVERSALS) expect(isFileKey(bad), JSON.stringify(bad)).toBe(false);
  });

  it('maps keys to /files/ URLs and back, and nothing else to a key', () => {
    expect(fileUrl('blog/abc.png')).toBe('/files/blog/abc.png');
    expect(fileKeyFromUrl('/files/blog/abc.png')).toBe('blog/abc.png');
    for (const url of [
      '/files/../x',
      'https://x.example/files/blog/a.png',
      '//x/files/a.png',
      '/files/a.png?x',
      '/files/a.png#x',
      '/FILES/a.png',
      'files/a.png',
      null,
      3,
    ]) {
      expect(fileKeyFromUrl(url), String(url)).toBeNull();
    }
    expect(() => fileUrl('../x')).toThrow();
  });
});

describe('LocalFileStorage', () => {
  let root: string;
  let storage: LocalFileStorage;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'files-'));
    storage = new LocalFileStorage(path.join(root, 'files'));
    await storage.open();
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('defaults to <DATA_DIR>/files', () => {
    expect(defaultFilesRoot('/srv/data')).toBe(path.join('/srv/data', 'files'));
  });

  fileStorageContract(() => storage);

  it('leaves no file behind a deleted key', async () => {
    const key = newFileKey('blog', 'txt');
    await storage.put(key, Buffer.from('x'), { contentType: 'text/plain' });
    await storage.delete(key);
    expect(await tree(storage.root)).toEqual([]);
  });

  it('takes a stream, and keeps files in sharded directories under the root', async () => {
    const key = 'blog/0f8e3c1a-7b2d-4c55-9a0e-3d1f2b4c5d6e.png';
    const { size } = await storage.put(key, Readable.from([Buffer.alloc(70_000, 1), Buffer.alloc(30_000, 2)]), {
      contentType: 'image/png',
    });
    expect(size).toBe(100_000);
    const file = storage.pathOf(key);
    expect(file).toMatch(
      new RegExp(`^${storage.root}/[0-9a-f]{2}/[0-9a-f]{2}/blog/0f8e3c1a-7b2d-4c55-9a0e-3d1f2b4c5d6e\\.png$`),
    );
    expect((await stat(file)).size).toBe(100_000);
    expect(JSON.parse(await readFile(`${file}.meta.json`, 'utf8'))).toEqual({ contentType: 'image/png' });
  });

  it('leaves no temporary files when puts race', async () => {
    const key = 'blog/race.txt';
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        storage.put(key, Buffer.alloc(50_000, 0x30 + i), { contentType: 'text/plain' }),
      ),
    );
    expect((await tree(storage.root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('sweeps the temporary files a killed upload left, once an hour old; a file in progress, stored files and other names stay', async () => {
    const key = 'blog/kept.txt';
    await storage.put(key, Buffer.from('kept'), { contentType: 'text/plain' });
    const tmp = path.join(storage.root, '.tmp');
    const left = path.join(tmp, '0123456789abcdef.tmp'); // as a SIGKILL mid-put leaves it
    const leftMeta = path.join(tmp, 'fedcba9876543210.meta.tmp');
    const inProgress = path.join(tmp, 'aaaaaaaaaaaaaaaa.tmp');
    const unrelated = path.join(tmp, 'notes.tmp');
    for (const f of [left, leftMeta, inProgress, unrelated]) await writeFile(f, 'x');
    const hourAgo = new Date(Date.now() - 2 * 3_600_000);
    for (const f of [left, leftMeta, unrelated]) await utimes(f, hourAgo, hourAgo);
    expect(await storage.sweepUnfinished()).toBe(2);
    const names = (await tree(storage.root)).map((f) => path.basename(f)).sort();
    expect(names).toEqual(['aaaaaaaaaaaaaaaa.tmp', 'kept.txt', 'kept.txt.meta.json', 'notes.tmp']);
    expect(await text((await storage.get(key))!.stream)).toBe('kept');
    expect(await new LocalFileStorage(path.join(root, 'nothing-yet')).sweepUnfinished()).toBe(0);
  });

  it('leaves nothing behind when the stream fails midway', async () => {
    const key = 'blog/broken.txt';
    async function* failing() {
      yield Buffer.from('part');
      throw new Error('connection reset');
    }
    await expect(storage.put(key, Readable.from(failing()), { contentType: 'text/plain' })).rejects.toThrow(
      'connection reset',
    );
    expect(await storage.exists(key)).toBe(false);
    expect(await tree(storage.root)).toEqual([]);
  });

  it('touches nothing on disk for a key that could leave the root', async () => {
    await storage.put('blog/keep.txt', Buffer.from('x'), { contentType: 'text/plain' });
    const before = await tree(root);
    for (const key of TRAVERSALS) {
      await storage.put(key, Buffer.from('evil'), { contentType: 'text/html' }).catch(() => undefined);
      await storage.delete(key).catch(() => undefined);
    }
    expect(await tree(root)).toEqual(before);
    await expect(storage.get('../x')).rejects.toBeInstanceOf(FileKeyError);
  });

  it('is ready once opened, and says so when its directory is gone', async () => {
    const fresh = new LocalFileStorage(path.join(root, 'later'));
    expect(await fresh.check()).toMatch(/missing/);
    await fresh.open();
    expect(await fresh.check()).toBeNull();
  });
});
