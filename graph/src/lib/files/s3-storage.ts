import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { FileKeyError, FileStoreUnavailableError } from './errors.js';
import { isFileKey } from './file-key.js';
import type { FileMeta, FileStorage, StoredFile } from './storage.js';

export interface S3StorageOptions {
  /** The store's URL (MinIO, SeaweedFS, Ceph: `http://host:port`); unset for Amazon S3 itself. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the SDK's own chain (AWS_ACCESS_KEY_ID…, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `http://endpoint/bucket/key` rather than `http://bucket.endpoint/key`; what most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several installations. */
  prefix?: string;
  /** At start, make the bucket when it is missing (a compose stack's first start); otherwise a missing bucket stops the start. */
  createBucket?: boolean;
}

/** Statuses and error names that mean "no such object" (GetObject says NoSuchKey; HeadObject has no body, only 404). */
const isNotFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;
};

/** An answer from the store about the request (a 4xx other than 404) is a bug or a misconfiguration; anything else means it could not be reached. */
function unavailable(e: unknown, what: string): Error {
  const status = (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  if (status && status >= 400 && status < 500) return e as Error;
  return new FileStoreUnavailableError(`the object store did not answer ${what}: ${(e as Error)?.message ?? e}`, {
    cause: e,
  });
}

async function readWhole(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Files in an S3-compatible object store (Amazon S3, MinIO, SeaweedFS, Ceph), one object per key
 * with its content type as the object's; every instance and worker sees the same files. A PUT
 * replaces an object whole, so readers see the old or the new file, never a part. Files stay
 * behind our authorization: they are streamed through the server, never served from the bucket.
 */
export class S3FileStorage implements FileStorage {
  readonly client: S3Client;
  readonly description: string;

  constructor(private readonly opts: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region,
      credentials: opts.credentials,
      forcePathStyle: opts.forcePathStyle,
      maxAttempts: 3,
      // Stores that predate S3's default CRC32 checksums refuse them; send and check them only where S3 requires.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
    });
    this.description = `s3://${opts.bucket}/${opts.prefix ?? ''}${opts.endpoint ? ` at ${opts.endpoint}` : ''}`;
  }

  private objectKey(key: string): string {
    if (!isFileKey(key)) throw new FileKeyError(`not a file key: ${JSON.stringify(String(key).slice(0, 300))}`);
    return `${this.opts.prefix ?? ''}${key}`;
  }

  async open(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.opts.bucket }));
      return;
    } catch (e) {
      if (!isNotFound(e)) throw unavailable(e, `for bucket ${this.opts.bucket}`);
    }
    if (!this.opts.createBucket)
      throw new Error(
        `S3_BUCKET ${this.opts.bucket} does not exist at ${this.opts.endpoint ?? 'Amazon S3'}: create it, or set S3_CREATE_BUCKET=true`,
      );
    await this.client.send(new CreateBucketCommand({ Bucket: this.opts.bucket })).catch((e: unknown) => {
      // Two instances starting together: the second one finds the bucket the first just made.
      const name = (e as { name?: string }).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw unavailable(e, 'CreateBucket');
    });
  }

  async check(): Promise<string | null> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.opts.bucket }));
      return null;
    } catch (e) {
      return isNotFound(e) ? `bucket ${this.opts.bucket} not found` : `no answer: ${(e as Error).message}`;
    }
  }

  async put(key: string, data: Uint8Array | Readable, meta: FileMeta): Promise<{ size: number }> {
    const Key = this.objectKey(key);
    // Uploads are bounded (MAX_ATTACHMENT_BYTES) and checked in memory before they get here; a
    // stream is read whole so the PUT carries its length (S3 refuses a body of unknown length).
    const body = data instanceof Uint8Array ? data : await readWhole(data);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key,
          Body: body,
          ContentLength: body.length,
          ContentType: meta.contentType,
        }),
      );
    } catch (e) {
      throw unavailable(e, `PutObject ${key}`);
    }
    return { size: body.length };
  }

  async get(key: string): Promise<StoredFile | null> {
    const Key = this.objectKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key }));
      const stream =
        res.Body instanceof Readable ? res.Body : Readable.fromWeb(res.Body!.transformToWebStream() as never);
      return {
        stream,
        size: res.ContentLength ?? 0,
        contentType: res.ContentType ?? 'application/octet-stream',
      };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw unavailable(e, `GetObject ${key}`);
    }
  }

  async delete(key: string): Promise<boolean> {
    const Key = this.objectKey(key);
    // S3's DELETE answers 204 whether or not the object was there; HEAD first to say which.
    const existed = await this.exists(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key }));
    } catch (e) {
      if (!isNotFound(e)) throw unavailable(e, `DeleteObject ${key}`);
    }
    return existed;
  }

  async exists(key: string): Promise<boolean> {
    const Key = this.objectKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key }));
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw unavailable(e, `HeadObject ${key}`);
    }
  }

  /** Every key in the bucket (under the prefix), in key order; for backups. */
  async *list(): AsyncIterable<string> {
    const prefix = this.opts.prefix ?? '';
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix: prefix || undefined, ContinuationToken: token }),
        )
        .catch((e: unknown) => {
          throw unavailable(e, 'ListObjectsV2');
        });
      for (const o of page.Contents ?? []) {
        const key = o.Key?.slice(prefix.length);
        if (isFileKey(key)) yield key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** A PUT is whole or absent: nothing unfinished is left in the bucket. */
  async sweepUnfinished(): Promise<number> {
    return 0;
  }

  close(): void {
    this.client.destroy();
  }
}
