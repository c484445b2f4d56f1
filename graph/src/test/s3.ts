/**
 * Which S3-compatible store the object-storage suites use:
 *  - S3_TEST_ENDPOINT set (`npm test` starts one through scripts/provision.sh): that store, with
 *    the test credentials of scripts/s3/seaweedfs.ts;
 *  - else, with the SeaweedFS binary already built and cached: a store of the suite's own;
 *  - else: the suite is skipped and says so — unless REQUIRE_S3=1, which fails it.
 * Each suite works in a bucket of its own, and each store it makes under a prefix of its own, so
 * suites sharing a store never see each other's files. One bucket per suite, not per store: the
 * store grows volumes for each bucket's first write, and a bucket per test exhausted them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { S3FileStorage, type S3StorageOptions } from '../lib/files/index.js';
import { startSeaweed, TEST_CREDENTIALS, weedPath, type SeaweedServer } from '../../../scripts/s3/seaweedfs.js';

export const requireS3 = process.env.REQUIRE_S3 === '1' || process.env.REQUIRE_S3 === 'true';
const external = process.env.S3_TEST_ENDPOINT?.trim() || '';
const canStart = fs.existsSync(weedPath());

/** True when this suite can run against a real S3-compatible store. */
export const s3Available = Boolean(external) || canStart;

export function s3SkipNotice(suite: string): void {
  if (s3Available) return;
  const msg = `[s3] SKIPPED ${suite}: no S3_TEST_ENDPOINT and no SeaweedFS built (npm test builds one; set REQUIRE_S3=1 to make this a failure)`;
  if (requireS3) throw new Error(msg.replace('SKIPPED', 'REQUIRED but unavailable:'));
  console.warn(msg);
}

export interface TestS3 {
  endpoint: string;
  /** Set when the suite started its own store (it may stop and restart it). */
  own?: SeaweedServer;
  /** The suite's bucket (created). */
  bucket: string;
  /** A bucket name no other suite uses (not created). */
  bucketName(): string;
  /** A prefix no other store of the suite uses (`p-…/`). */
  prefixName(): string;
  /** A store in the suite's bucket under a fresh prefix, unless `opts` say otherwise. */
  storage(opts?: Partial<S3StorageOptions>): Promise<S3FileStorage>;
  /** The S3_ settings of a process that stores under `prefix` in the suite's bucket. */
  env(prefix: string): Record<string, string>;
  close(): Promise<void>;
}

export async function useTestS3(opts: { own?: boolean } = {}): Promise<TestS3> {
  let endpoint = external;
  let own: SeaweedServer | undefined;
  let dir: string | undefined;
  if (!endpoint || opts.own) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-s3-'));
    own = await startSeaweed({ dir });
    endpoint = own.endpoint;
  }
  const made: S3FileStorage[] = [];
  const bucketName = () => `t-${randomBytes(6).toString('hex')}`;
  const prefixName = () => `p-${randomBytes(4).toString('hex')}/`;
  const bucket = bucketName();
  const storage = async (o: Partial<S3StorageOptions> = {}) => {
    const s = new S3FileStorage({
      endpoint,
      bucket,
      prefix: o.bucket ? undefined : prefixName(),
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      forcePathStyle: true,
      createBucket: true,
      ...o,
    });
    made.push(s);
    await s.open();
    return s;
  };
  await storage(); // the suite's bucket
  return {
    endpoint,
    own,
    bucket,
    bucketName,
    prefixName,
    storage,
    env: (prefix) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_PREFIX: prefix,
      S3_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
    }),
    close: async () => {
      for (const s of made) s.close();
      await own?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
