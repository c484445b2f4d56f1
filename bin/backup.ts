/**
 * `npm run backup -- <dir>`: an online backup of this installation into <dir> (one
 * intranet-backup-YYYYMMDD-HHMMSS.tar.gz: the embedded PostgreSQL's base backup with its WAL, the
 * uploaded files, a manifest with checksums) while the platform keeps serving. With DATABASE_URL
 * (an external PostgreSQL) only the files are saved: back the database up with its own tools
 * (docs/operations.md). `npm run restore -- <archive>` puts it back.
 */
import { loadConfigOrExit, backupInto, createLogger, ownSignals } from '@intranet/graph';
import { openDatabase } from '@intranet/graph/app';

const [dir, ...extra] = process.argv.slice(2);
if (!dir || extra.length || dir.startsWith('-')) {
  console.error('usage: npm run backup -- <directory>');
  process.exit(64);
}
const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const db = await openDatabase(config, log, { attach: true });
ownSignals(() => undefined); // finish (or fail) the archive, then stop the database this command started
let code = 0;
const t0 = Date.now();
try {
  const { archive, manifest } = await backupInto(config, db, dir);
  const files = Object.keys(manifest.checksums).filter((k) => /^(files|objects)\//.test(k)).length;
  console.log(`backup written: ${archive} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(
    `  database: ${manifest.database === 'embedded' ? `embedded PostgreSQL ${manifest.postgresVersion}, WAL ${manifest.wal!.start} → ${manifest.wal!.stop}` : 'external (not in the archive: use pg_basebackup or pg_dump, see docs/operations.md)'}`,
  );
  console.log(
    `  migrations: ${manifest.migrations.length} (last ${manifest.migrations.at(-1) ?? 'none'}); uploaded files: ${files}`,
  );
} catch (err) {
  console.error(`backup failed: ${(err as Error).message}`);
  code = 1;
} finally {
  await db.embedded?.stop().catch(() => undefined);
}
process.exit(code);
