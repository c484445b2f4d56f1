import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, type Config, createLogger, type Logger } from '@intranet/graph';
import { ImportConsumer } from './import.consumer.js';

export { ImportConsumer };

export function createImportConsumer(opts: { config?: Config; log?: Logger } = {}): ImportConsumer {
  const config = opts.config ?? loadConfig();
  return new ImportConsumer(
    {
      maxRows: config.IMPORT_MAX_ROWS,
      maxUncompressedBytes: config.IMPORT_MAX_UNCOMPRESSED_BYTES,
      maxZipEntries: config.IMPORT_MAX_ZIP_ENTRIES,
    },
    opts.log ?? createLogger(config.LOG_LEVEL),
  );
}

/** Attaches the consumer to the process's ORM and looks for pending jobs now and every `everyMs`. */
export function startImportScheduler(
  consumer: ImportConsumer,
  orm: MikroORM,
  everyMs = 10_000,
): { stop(): Promise<void> } {
  consumer.attach(orm);
  void consumer.kick();
  const timer = setInterval(() => void consumer.kick(), everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await consumer.idle();
    },
  };
}
