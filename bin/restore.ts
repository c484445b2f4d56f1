/**
 * `npm run restore -- <archive>`: puts a backup of `npm run backup` into DATA_DIR, which must be
 * empty (a new machine, or the old one moved aside). The archive is checked against its manifest
 * before anything is moved into place. The next `npm start` on that DATA_DIR recovers the database
 * to the moment the backup ended; nothing else is needed. The files of a backup taken with S3_BUCKET go
 * into the store configured now (S3_BUCKET, or DATA_DIR/files).
 */
import { fileStorageFor, loadConfigOrExit, restoreBackup } from '@intranet/graph';

const [archive, ...extra] = process.argv.slice(2);
if (!archive || extra.length || archive.startsWith('-')) {
  console.error('usage: npm run restore -- <archive.tar.gz>   (into DATA_DIR, which must be empty)');
  process.exit(64);
}
const config = loadConfigOrExit();
try {
  const files = fileStorageFor(config);
  const m = await restoreBackup(archive, config.dataDir, files);
  console.log(
    `restored ${archive} into ${config.dataDir} (backup of ${m.createdAt}, ${m.migrations.length} migrations, version ${m.appVersion})`,
  );
  if (m.database === 'external')
    console.log('  the archive held the uploaded files only: restore the external database with its own tools');
  if (m.objects)
    console.log(
      `  ${Object.keys(m.objects.contentTypes).length} files of ${m.objects.store} put into ${files.description}`,
    );
  console.log('  start the platform on it: npm start');
} catch (err) {
  console.error(`restore failed: ${(err as Error).message}`);
  process.exit(1);
}
