import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDb } from '../db/embedded.js';
import { migrate, openOrm } from '../db/orm.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the migrated template database; each test file clones it. */
    pgTemplateUrl: string;
  }
}

let db: EmbeddedDb | undefined;
let dir: string | undefined;

/**
 * One real PostgreSQL for the whole run (DATABASE_URL_TEST to use an external one), with a
 * template database migrated once; test files clone it (CREATE DATABASE … TEMPLATE) in milliseconds.
 */
export async function setup(project: TestProject) {
  // dist/ current for the tests that start the compiled workers CLI as a child (test/compiled.ts); well under a second.
  execFileSync(process.execPath, ['scripts/build-server.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    stdio: 'ignore',
  });
  let url = process.env.DATABASE_URL_TEST;
  if (!url) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-test-pg-'));
    db = await startEmbeddedPostgres(dir, 'intranet_template', undefined, { durable: false });
    url = db.url;
  } else {
    const u = new URL(url);
    const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`drop database if exists intranet_template`);
    await admin.query(`create database intranet_template`);
    await admin.end();
    u.pathname = '/intranet_template';
    url = u.toString();
  }
  const orm = await openOrm(url, 2);
  await migrate(orm);
  await orm.close();
  project.provide('pgTemplateUrl', url);
}

export async function teardown() {
  await db?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
