import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/config.js';
import { defaultFilesRoot, type FileStorage, S3FileStorage } from '../../lib/files/index.js';
import { fileStorageFor } from '../../platform/file-storage.js';
import type { Logger } from '../../platform/logger.js';
import { repoRoot } from '../../platform/paths.js';
import type { Database } from '../../platform/bootstrap.js';
import { takeBackup, type BackupManifest } from './backup.js';
import { msUntilTokyoTime } from '@intranet/schema/calendar/tokyo';

export { restoreBackup } from './restore.js';
export type { BackupManifest } from './backup.js';

const ARCHIVE = /^intranet-backup-\d{8}-\d{6}\.tar\.gz$/;

/** `intranet-backup-YYYYMMDD-HHMMSS.tar.gz`, in UTC (names sort by time). */
export function archiveName(at = new Date()): string {
  const s = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `intranet-backup-${s}.tar.gz`;
}

/** A backup of this installation's database and uploaded files into `dir`; the archive's path and its manifest. */
export async function backupInto(
  config: Config,
  db: Database,
  dir: string,
  files: FileStorage = fileStorageFor(config),
): Promise<{ archive: string; manifest: BackupManifest }> {
  fs.mkdirSync(dir, { recursive: true });
  const archive = path.join(dir, archiveName());
  const version =
    (JSON.parse(fs.readFileSync(path.join(repoRoot(import.meta.url), 'package.json'), 'utf8')) as { version?: string })
      .version ?? '0.0.0';
  const manifest = await takeBackup(
    {
      url: db.url,
      pgdata: db.embedded ? path.join(config.dataDir, 'pg') : null,
      filesDir: config.S3_BUCKET ? null : defaultFilesRoot(config.dataDir),
      objectStore: files instanceof S3FileStorage ? files : null,
      appVersion: version,
    },
    archive,
  );
  return { archive, manifest };
}

/** Removes all but the `keep` newest archives of `dir`. */
export function pruneBackups(dir: string, keep: number): string[] {
  const all = fs
    .readdirSync(dir)
    .filter((f) => ARCHIVE.test(f))
    .sort();
  const gone = all.slice(0, Math.max(0, all.length - keep));
  for (const f of gone) fs.rmSync(path.join(dir, f), { force: true });
  return gone;
}

/**
 * The daily backup of `npm start` when BACKUP_DIR is set: at BACKUP_AT (Asia/Tokyo), keeping the
 * BACKUP_KEEP newest archives. A failure is logged and the next day's runs as planned.
 */
export function scheduleBackups(config: Config, db: Database, log: Logger): { stop(): void } {
  const dir = config.BACKUP_DIR;
  if (!dir) return { stop: () => undefined };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const plan = () => {
    if (stopped) return;
    timer = setTimeout(() => void run(), msUntilTokyoTime(config.BACKUP_AT));
    timer.unref();
  };
  const run = async () => {
    const t0 = Date.now();
    try {
      const { archive } = await backupInto(config, db, dir);
      const removed = pruneBackups(dir, config.BACKUP_KEEP);
      log.info({ archive, ms: Date.now() - t0, removed }, 'scheduled backup written');
    } catch (err) {
      log.error({ err }, 'scheduled backup failed');
    }
    plan();
  };
  plan();
  log.info({ dir, at: `${config.BACKUP_AT} Asia/Tokyo`, keep: config.BACKUP_KEEP }, 'daily backups scheduled');
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
