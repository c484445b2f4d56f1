import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError } from '../../platform/errors.js';
import { s3Available, s3SkipNotice, useTestS3, type TestS3 } from '../../test/s3.js';
import { FileStoreUnavailableError, newFileKey, S3FileStorage } from './index.js';
import { fileStorageContract } from './storage-contract.js';
import { TEST_CREDENTIALS } from '../../../../scripts/s3/seaweedfs.js';

s3SkipNotice('S3FileStorage');

describe.skipIf(!s3Available)('S3FileStorage against a real S3-compatible store (SeaweedFS)', () => {
  let s3: TestS3;
  let storage: S3FileStorage;
  beforeAll(async () => {
    s3 = await useTestS3({ own: true }); // its own: the last test stops and restarts it
    storage = await s3.storage();
  }, 120_000);
  afterAll(() => s3?.close());

  fileStorageContract(() => storage);

  it('keeps installations apart by prefix within one bucket', async () => {
    const a = await s3.storage({ prefix: 'a/' });
    const b = await s3.storage({ prefix: 'b/' });
    const key = newFileKey('blog', 'txt');
    await a.put(key, Buffer.from('A'), { contentType: 'text/plain' });
    expect(await b.exists(key)).toBe(false);
    expect(await b.get(key)).toBeNull();
    expect(await text((await a.get(key))!.stream)).toBe('A');
  });

  it('stops the start on a missing bucket, naming it; creates it only when told to', async () => {
    const bucket = s3.bucketName();
    const strict = new S3FileStorage({
      endpoint: s3.endpoint,
      bucket,
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      forcePathStyle: true,
    });
    await expect(strict.open()).rejects.toThrow(`S3_BUCKET ${bucket} does not exist`);
    expect(await strict.check()).toBe(`bucket ${bucket} not found`);
    await expect(
      strict.put(newFileKey('blog', 'txt'), Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toThrow();
    const creating = await s3.storage({ bucket }); // creates it (nothing is written into it)
    await creating.open(); // a second start finds it
    expect(await strict.check()).toBeNull();
    strict.close();
  });

  it('refuses a wrong secret (the request is signed and checked)', async () => {
    const forged = await s3.storage();
    const wrong = new S3FileStorage({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      prefix: (forged as unknown as { opts: { prefix: string } }).opts.prefix,
      region: 'us-east-1',
      credentials: { accessKeyId: TEST_CREDENTIALS.accessKeyId, secretAccessKey: 'not-the-secret-key-000' },
      forcePathStyle: true,
    });
    const key = newFileKey('blog', 'txt');
    await expect(wrong.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow();
    expect(await forged.exists(key)).toBe(false);
    wrong.close();
  });

  it('a store that does not answer is a 503 that says so, and /readyz names it; it works again once the store is back', async () => {
    const key = newFileKey('blog', 'txt');
    await storage.put(key, Buffer.from('before'), { contentType: 'text/plain' });
    await s3.own!.stop();
    const failed = await storage
      .put(newFileKey('blog', 'txt'), Buffer.from('x'), { contentType: 'text/plain' })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(FileStoreUnavailableError);
    const answer = toAppError(failed);
    expect(answer.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.message).toBe(
      'ファイルの保存先に接続できないため処理できませんでした。しばらくしてから再度お試しください。',
    );
    await expect(storage.get(key)).rejects.toBeInstanceOf(FileStoreUnavailableError);
    expect(await storage.check()).toMatch(/^no answer/);
    await s3.own!.restart();
    expect(await text((await storage.get(key))!.stream)).toBe('before');
    expect(await storage.check()).toBeNull();
  }, 120_000);
});
