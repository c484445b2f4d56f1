/**
 * Uploaded files handed from the upload to its job within one process. The upload stores the file
 * in its job row (so any worker, and a restart, can run it) and also leaves it here; when the job
 * runs in the same process (the embedded default: `npm start` runs the import worker), it takes
 * the file from here instead of reading it back from PostgreSQL (about 0.09 s for 6.6 MB, on the
 * path between the upload and the job's start, and a second copy of the file in memory while it
 * decodes). A job run elsewhere, or after the entry is gone, reads the row as before: the bytes
 * are the same, a job's file never changes.
 *
 * Bounded: at most `maxBytes` in all (the oldest go first) and `ttlMs` per entry (a job queued
 * behind others longer than that reads its row). Files are kept only once this process runs the
 * import worker (`enable`, by ImportConsumer): with Kafka the graph process runs none, and nothing
 * here would ever be taken.
 */
export class UploadHandoff {
  private readonly files = new Map<string, { data: Buffer; until: number }>();
  private bytes = 0;
  private enabled = false;

  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** This process runs the import worker: from now on uploads are kept for it. */
  enable(): void {
    this.enabled = true;
  }

  /** Leaves a committed job's file (call after the upload's transaction committed); nothing when no import worker runs here. */
  put(jobId: string, data: Buffer): void {
    if (!this.enabled) return;
    this.drop(jobId);
    this.expire();
    if (data.length > this.maxBytes) return;
    while (this.bytes + data.length > this.maxBytes) this.drop(this.files.keys().next().value!);
    this.files.set(jobId, { data, until: this.now() + this.ttlMs });
    this.bytes += data.length;
  }

  /** The job's file, once (null when not here). */
  take(jobId: string): Buffer | null {
    this.expire();
    const e = this.files.get(jobId);
    if (!e) return null;
    this.drop(jobId);
    return e.data;
  }

  get size(): { files: number; bytes: number } {
    return { files: this.files.size, bytes: this.bytes };
  }

  private drop(jobId: string): void {
    const e = this.files.get(jobId);
    if (!e) return;
    this.files.delete(jobId);
    this.bytes -= e.data.length;
  }

  private expire(): void {
    const t = this.now();
    // Insertion order is expiry order (one ttl for all).
    for (const [id, e] of this.files) {
      if (e.until > t) break;
      this.drop(id);
    }
  }
}

/** This process's hand-off (the upload route and the import worker of one process share it). */
export const uploadHandoff = new UploadHandoff();
