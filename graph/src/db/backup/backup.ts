import { createHash } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import type { S3FileStorage } from '../../lib/files/index.js';
import { TarWriter } from '../../lib/tar/index.js';

/** What a backup archive holds, written as its last entry (`manifest.json`). */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** The platform's version (package.json) and the migrations applied to the database. */
  appVersion: string;
  migrations: string[];
  /** 'embedded': `pg/` is a base backup of the cluster; 'external': only the files (see docs/operations.md). */
  database: 'embedded' | 'external';
  postgresVersion: string | null;
  wal: { start: string; stop: string } | null;
  /** sha256 of every file entry, by its name in the archive. */
  checksums: Record<string, string>;
  /** With an object store (S3_BUCKET): where the files came from, and each one's content type (the archive's `objects/<key>`). */
  objects?: { store: string; contentTypes: Record<string, string> };
}

/** Files of a data directory a base backup leaves out (PostgreSQL's documentation, "Making a Base Backup Using the Low Level API"). */
const SKIP_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'intranet-owner.json',
  'backup_label',
  'tablespace_map',
  'backup_label.old',
  'backup_manifest',
]);
/** Directories kept, their contents not: rebuilt or unused at start. pg_wal gets the backup's own segments. */
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);

export interface BackupSource {
  /** A superuser connection to the database (the embedded cluster's postgres user). */
  url: string;
  /** The cluster's data directory, for an embedded database; null for an external one (files only). */
  pgdata: string | null;
  /** DATA_DIR/files, when files are kept on disk. */
  filesDir: string | null;
  /** The bucket, when files are kept in an object store: each object goes into the archive as `objects/<key>`. */
  objectStore?: S3FileStorage | null;
  appVersion: string;
}

/**
 * An online, consistent backup into `archivePath` (.tar.gz), while the platform keeps serving:
 * PostgreSQL's own base-backup method (pg_backup_start, a copy of the data directory, pg_backup_stop,
 * and the WAL written meanwhile, held by a temporary replication slot), then the uploaded files,
 * then the manifest with every file's checksum. Restored, the cluster replays that WAL to the
 * moment the backup ended.
 */
export async function takeBackup(source: BackupSource, archivePath: string): Promise<BackupManifest> {
  const client = new pg.Client({ connectionString: source.url });
  client.on('error', () => undefined); // a drop surfaces as the failed query below
  await client.connect();
  const partial = `${archivePath}.partial`;
  const tarStream = new PassThrough({ highWaterMark: 1 << 20 });
  const done = pipeline(tarStream, createGzip({ level: 6 }), createWriteStream(partial, { mode: 0o600 }));
  const tar = new TarWriter(tarStream);
  const checksums: Record<string, string> = {};
  try {
    const migrations = (
      await client.query<{ name: string }>(`select name from mikro_orm_migrations order by id`)
    ).rows.map((r) => r.name);
    const postgresVersion = (await client.query<{ v: string }>(`select current_setting('server_version') as v`))
      .rows[0]!.v;
    let wal: BackupManifest['wal'] = null;
    if (source.pgdata) {
      // The slot keeps every WAL segment from now on until this session ends.
      await client.query(`select pg_create_physical_replication_slot($1, true, true)`, [
        `intranet_backup_${process.pid}`,
      ]);
      const start = (
        await client.query<{ lsn: string }>(`select pg_backup_start($1, true)::text as lsn`, [
          `intranet ${new Date().toISOString()}`,
        ])
      ).rows[0]!.lsn;
      await addTree(tar, source.pgdata, 'pg', checksums, (rel) => {
        const [top, ...rest] = rel.split('/');
        if (rest.length === 0 && SKIP_FILES.has(top!)) return 'skip';
        if (EMPTY_DIRS.has(top!)) return rest.length === 0 ? 'empty' : 'skip';
        if (/^log$|\.log$/.test(top!)) return 'skip';
        return 'copy';
      });
      const stop = (
        await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
          `select lsn::text, labelfile, spcmapfile from pg_backup_stop(false)`,
        )
      ).rows[0]!;
      // Finish the segment holding the backup's end, so it is whole on disk.
      await client.query(`select pg_switch_wal()`);
      const label = Buffer.from(stop.labelfile);
      checksums['pg/backup_label'] = sha256(label);
      await tar.buffer('pg/backup_label', label);
      if (stop.spcmapfile) {
        const map = Buffer.from(stop.spcmapfile);
        checksums['pg/tablespace_map'] = sha256(map);
        await tar.buffer('pg/tablespace_map', map);
      }
      const first = (await client.query<{ f: string }>(`select pg_walfile_name($1::pg_lsn) as f`, [start])).rows[0]!.f;
      const last = (await client.query<{ f: string }>(`select pg_walfile_name($1::pg_lsn) as f`, [stop.lsn])).rows[0]!
        .f;
      const walDir = path.join(source.pgdata, 'pg_wal');
      const segments = (await fs.readdir(walDir))
        .filter((f) => /^[0-9A-F]{24}$/.test(f) && f >= first && f <= last)
        .sort();
      if (segments[0] !== first || segments.at(-1) !== last)
        throw new Error(`backup: WAL segments ${first}…${last} are not all in ${walDir}`);
      for (const seg of segments) await addFile(tar, path.join(walDir, seg), `pg/pg_wal/${seg}`, checksums);
      wal = { start, stop: stop.lsn };
    }
    if (source.filesDir)
      await addTree(tar, source.filesDir, 'files', checksums, (rel) => (rel.endsWith('.tmp') ? 'skip' : 'copy'));
    const objects = source.objectStore ? await addObjects(tar, source.objectStore, checksums) : undefined;
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      appVersion: source.appVersion,
      migrations,
      database: source.pgdata ? 'embedded' : 'external',
      postgresVersion,
      wal,
      checksums,
      ...(objects && { objects }),
    };
    await tar.buffer('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
    await tar.end();
    tarStream.end();
    await done;
    await fs.rename(partial, archivePath);
    return manifest;
  } catch (err) {
    tarStream.destroy();
    await done.catch(() => undefined);
    await fs.rm(partial, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => undefined); // ends the backup and drops the slot if still held
  }
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function addFile(tar: TarWriter, file: string, name: string, checksums: Record<string, string>): Promise<void> {
  const hash = createHash('sha256');
  await tar.file(name, file, (b) => hash.update(b));
  checksums[name] = hash.digest('hex');
}

/**
 * Every file below `root` as `prefix/<relative path>`. `decide` says per relative path whether to
 * copy it, keep a directory empty, or skip it. Files that vanish while the tree is read (PostgreSQL
 * drops relations, the sweeper removes files) are left out.
 */
/** Every object of the store as `objects/<key>` (files are bounded in size: each is read whole). */
async function addObjects(
  tar: TarWriter,
  store: S3FileStorage,
  checksums: Record<string, string>,
): Promise<NonNullable<BackupManifest['objects']>> {
  await tar.directory('objects');
  const contentTypes: Record<string, string> = {};
  for await (const key of store.list()) {
    const file = await store.get(key);
    if (!file) continue; // deleted since the listing
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    checksums[`objects/${key}`] = sha256(bytes);
    contentTypes[key] = file.contentType;
    await tar.buffer(`objects/${key}`, bytes);
  }
  return { store: store.description, contentTypes };
}

async function addTree(
  tar: TarWriter,
  root: string,
  prefix: string,
  checksums: Record<string, string>,
  decide: (rel: string) => 'copy' | 'empty' | 'skip',
): Promise<void> {
  const exists = await fs.stat(root).catch(() => null);
  if (!exists) {
    await tar.directory(prefix);
    return;
  }
  await tar.directory(prefix, exists.mode);
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const what = decide(r);
      if (what === 'skip') continue;
      const full = path.join(root, r);
      if (e.isDirectory()) {
        const st = await fs.stat(full).catch(() => null);
        if (!st) continue;
        await tar.directory(`${prefix}/${r}`, st.mode, st.mtime);
        if (what === 'copy') await walk(r);
      } else if (e.isFile()) {
        try {
          await addFile(tar, full, `${prefix}/${r}`, checksums);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
  };
  await walk('');
}
