/** What every FileStorage driver must do; storage.test.ts runs it over a directory, s3-storage.s3.test.ts over a real bucket. */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect, it } from 'vitest';
import { FileKeyError } from './errors.js';
import { newFileKey } from './file-key.js';
import type { FileStorage } from './storage.js';

/** Keys that could name another path or object; every operation refuses them. */
export const TRAVERSALS = [
  '../escape.txt',
  '../../etc/passwd',
  'blog/../../x.txt',
  'blog/..',
  '..',
  '.',
  './x',
  '/etc/passwd',
  'C:\\x.txt',
  'blog\\..\\x',
  '%2e%2e/x',
  'blog//x.png',
  'blog/',
  '',
  '.hidden',
  'blog/.x',
  'a/b/c/d/e',
  'x\u0000.png',
  'blog/x.png.exe',
  'ブログ/写真.png',
  `${'a'.repeat(256)}`,
];

export function fileStorageContract(storage: () => FileStorage): void {
  it('puts bytes, gets them back as a stream with size and type, and deletes them', async () => {
    const s = storage();
    const key = newFileKey('blog', 'txt');
    const body = Buffer.from('社内報 第1号\n', 'utf8');
    expect(await s.exists(key)).toBe(false);
    expect(await s.get(key)).toBeNull();
    expect(await s.put(key, body, { contentType: 'text/plain; charset=utf-8' })).toEqual({ size: body.length });
    expect(await s.exists(key)).toBe(true);
    const got = await s.get(key);
    expect(got).toMatchObject({ size: body.length, contentType: 'text/plain; charset=utf-8' });
    expect(await text(got!.stream)).toBe('社内報 第1号\n');
    expect(await s.delete(key)).toBe(true);
    expect(await s.delete(key)).toBe(false);
    expect(await s.exists(key)).toBe(false);
    expect(await s.get(key)).toBeNull();
  });

  it('takes a stream as well as bytes', async () => {
    const s = storage();
    const key = newFileKey('blog', 'png');
    const { size } = await s.put(key, Readable.from([Buffer.alloc(70_000, 1), Buffer.alloc(30_000, 2)]), {
      contentType: 'image/png',
    });
    expect(size).toBe(100_000);
    const got = await s.get(key);
    const bytes = Buffer.concat(await chunks(got!.stream));
    expect(got!.size).toBe(100_000);
    expect(bytes.subarray(69_999, 70_001)).toEqual(Buffer.from([1, 2]));
    expect(await s.sweepUnfinished()).toBe(0);
  });

  it('replaces a file whole, even with puts racing: a reader sees one of them, never a mix', async () => {
    const s = storage();
    const key = newFileKey('blog', 'txt');
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => s.put(key, Buffer.alloc(50_000, 0x30 + i), { contentType: 'text/plain' })),
    );
    const content = await text((await s.get(key))!.stream);
    expect(content).toHaveLength(50_000);
    expect(new Set(content).size).toBe(1);
  });

  it('refuses every key that could leave the store, for every operation', async () => {
    const s = storage();
    for (const key of TRAVERSALS) {
      await expect(s.put(key, Buffer.from('evil'), { contentType: 'text/html' }), key).rejects.toBeInstanceOf(
        FileKeyError,
      );
      await expect(s.get(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(s.exists(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(s.delete(key)).rejects.toBeInstanceOf(FileKeyError);
    }
  });

  it('says it is ready', async () => {
    expect(await storage().check()).toBeNull();
  });
}

async function chunks(stream: NodeJS.ReadableStream): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const c of stream) out.push(Buffer.from(c as Buffer));
  return out;
}
