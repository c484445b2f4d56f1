import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../../test/db.js';
import { s3Available, s3SkipNotice, useTestS3, type TestS3 } from '../../test/s3.js';
import { defaultFilesRoot, LocalFileStorage, newFileKey, type S3FileStorage } from '../../lib/files/index.js';
import { backupInto, restoreBackup } from './index.js';

s3SkipNotice('backups of an object-store installation');

describe.skipIf(!s3Available)('backups of an installation whose files are in an S3-compatible store', () => {
  let db: TestDatabase;
  let s3: TestS3;
  let source: S3FileStorage;
  let prefix: string;
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-backup-s3-'));
    dirs.push(d);
    return d;
  };
  const files = [
    { key: newFileKey('blog', 'txt'), body: Buffer.from('社内報 第2号\n'), contentType: 'text/plain; charset=utf-8' },
    { key: newFileKey('comments', 'pdf'), body: Buffer.alloc(300_000, 7), contentType: 'application/pdf' },
    { key: newFileKey('profiles', 'webp'), body: Buffer.from([1, 2, 3]), contentType: 'image/webp' },
  ];

  beforeAll(async () => {
    [db, s3] = await Promise.all([createTestDatabase(), useTestS3()]);
    prefix = s3.prefixName();
    source = await s3.storage({ prefix });
    for (const f of files) await source.put(f.key, f.body, { contentType: f.contentType });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await s3?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  async function backup() {
    const config = testConfig(s3.env(prefix));
    dirs.push(config.dataDir);
    return backupInto(config, { url: db.url, embedded: null }, tmp(), source);
  }

  it("holds every object of the bucket with its type, and restores them into another installation's bucket", async () => {
    const { archive, manifest } = await backup();
    expect(Object.keys(manifest.objects!.contentTypes).sort()).toEqual(files.map((f) => f.key).sort());
    expect(Object.keys(manifest.checksums).filter((k) => k.startsWith('files/'))).toEqual([]);
    const target = await s3.storage();
    const restored = await restoreBackup(archive, tmp(), target);
    expect(restored.objects!.store).toBe(source.description);
    for (const f of files) {
      const got = (await target.get(f.key))!;
      expect(got.contentType).toBe(f.contentType);
      const chunks: Buffer[] = [];
      for await (const c of got.stream) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks)).toEqual(f.body);
    }
  });

  it('restores them into DATA_DIR/files when the new installation keeps files on disk', async () => {
    const { archive } = await backup();
    const dataDir = tmp();
    await restoreBackup(archive, dataDir);
    const local = new LocalFileStorage(defaultFilesRoot(dataDir));
    expect(await text((await local.get(files[0]!.key))!.stream)).toBe('社内報 第2号\n');
    expect((await local.get(files[1]!.key))!.size).toBe(300_000);
  });
});
