import type { MikroORM } from '@mikro-orm/postgresql';
import type { Registry } from 'prom-client';
import { loadConfig, type Config, createLogger, type Logger, sessionSecret } from '@intranet/graph';
import {
  GoogleCalendarGateway,
  GoogleConnectionService,
  GoogleMetrics,
  SharedGoogleQuota,
} from '@intranet/graph/areas';
import { GoogleSyncConsumer } from './google-sync.consumer.js';
import { GoogleSyncEngine } from './sync-engine.js';
import { GoogleSyncScheduler } from './scheduler.js';

export { GoogleSyncConsumer, GoogleSyncEngine, GoogleSyncScheduler };

export interface GoogleSync {
  consumer: GoogleSyncConsumer;
  engine: GoogleSyncEngine;
  /** Starts the timer pulls (and "sync the month shown" requests) on this ORM; returns the scheduler. */
  startScheduler(orm: MikroORM, opts?: { tickMs?: number }): GoogleSyncScheduler;
  /** Paces this process's Google calls by the per-user quota every process shares through this ORM's database. */
  shareQuota(orm: MikroORM): void;
}

/**
 * The google-sync worker: the push consumer ('google-sync') and the pull scheduler sharing one
 * engine (one Google client per process), paced by the per-user quota all processes share once
 * `shareQuota` is called.
 */
export function createGoogleSync(
  opts: { config?: Config; log?: Logger; registry?: Registry; secret?: Buffer } = {},
): GoogleSync {
  const config = opts.config ?? loadConfig();
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  const gateway = new GoogleCalendarGateway({ config, metrics: new GoogleMetrics(opts.registry) });
  const connections = new GoogleConnectionService(gateway, opts.secret ?? sessionSecret(config));
  const engine = new GoogleSyncEngine(connections, log);
  return {
    consumer: new GoogleSyncConsumer(engine, log),
    engine,
    shareQuota(orm) {
      gateway.useQuota(new SharedGoogleQuota(orm, config.GOOGLE_QUOTA_PER_SECOND, config.GOOGLE_QUOTA_BURST));
    },
    startScheduler(orm, s = {}) {
      const scheduler = new GoogleSyncScheduler(orm, engine, log, {
        intervalSeconds: config.GOOGLE_SYNC_INTERVAL_SECONDS,
        concurrency: config.GOOGLE_SYNC_CONCURRENCY,
        tickMs: s.tickMs,
      });
      scheduler.start();
      return scheduler;
    },
  };
}
