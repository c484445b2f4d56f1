import { randomBytes } from 'node:crypto';
import type { EventConsumer } from '../platform/events/consumer.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, type Config } from '../config/config.js';
import { openOrm } from '../db/orm.js';
import { createLogger } from '../platform/logger.js';
import { startGraph, type Graph } from '../platform/bootstrap.js';

export interface TestDatabase {
  url: string;
  orm: MikroORM;
  close(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file (cloned from the run's template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('pgTemplateUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const adminUrl = template.replace(/\/[^/?]*(\?.*)?$/, '/postgres');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template intranet_template`);
  await admin.end();
  const url = template.replace(/\/intranet_template/, `/${name}`);
  const orm = await openOrm(url, 5);
  return {
    url,
    orm,
    close: async () => {
      await orm.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

/**
 * An empty database of its own, migrated up to and including `upTo` only: for a test of a later
 * migration on data written before it.
 */
export async function databaseMigratedTo(
  upTo: string,
): Promise<{ url: string; orm: MikroORM; close(): Promise<void> }> {
  const template = inject('pgTemplateUrl');
  const name = `t_mig_${randomBytes(4).toString('hex')}`;
  const adminUrl = template.replace(/\/[^/?]*(\?.*)?$/, '/postgres');
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`create database "${name}"`);
  const url = template.replace(/\/intranet_template/, `/${name}`);
  const orm = await openOrm(url, 2);
  await orm.getMigrator().up({ to: upTo });
  return {
    url,
    orm,
    close: async () => {
      await orm.close();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

/** Tests write fast as one person; the write limits have a test of their own (blog-write-limits.test.ts). */
export const UNTHROTTLED = {
  THROTTLE_COMMENTS_PER_MINUTE: '1000000',
  THROTTLE_LIKES_PER_MINUTE: '1000000',
  THROTTLE_POSTS_PER_MINUTE: '1000000',
  THROTTLE_UPLOADS_PER_MINUTE: '1000000',
};

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-test-data-'));
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ...UNTHROTTLED,
    ...overrides,
  });
}

export interface TestPlatform {
  graph: Graph;
  url: string;
  db: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** The whole graph server (HTTP, WS, relay, and `consumers` in-process) on a random port over a fresh database with the demo company. */
export async function startTestPlatform(
  overrides: Record<string, string> = {},
  opts: { consumers?: EventConsumer[] } = {},
): Promise<TestPlatform> {
  const db = await createTestDatabase();
  const config = testConfig(overrides);
  const graph = await startGraph(config, createLogger(process.env.TEST_LOG ?? 'silent'), db.url, {
    consumers: opts.consumers,
  });
  return {
    graph,
    url: graph.server.url,
    db,
    config,
    close: async () => {
      await graph.stop();
      await db.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
