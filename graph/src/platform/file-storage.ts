import type { Config } from '../config/config.js';
import { defaultFilesRoot, type FileStorage, LocalFileStorage, S3FileStorage } from '../lib/files/index.js';

/**
 * The one file store of this process, as configured: an S3-compatible bucket when S3_BUCKET is set
 * (every instance and worker then sees the same files), otherwise `<DATA_DIR>/files`.
 */
export function fileStorageFor(config: Config): FileStorage {
  if (!config.S3_BUCKET) return new LocalFileStorage(defaultFilesRoot(config.dataDir));
  return new S3FileStorage({
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    // A custom endpoint is a self-hosted store, which rarely has a DNS name per bucket.
    forcePathStyle: config.S3_FORCE_PATH_STYLE ? config.S3_FORCE_PATH_STYLE === 'true' : !!config.S3_ENDPOINT,
    prefix: config.S3_PREFIX,
    createBucket: config.S3_CREATE_BUCKET === 'true',
  });
}
