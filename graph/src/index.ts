/**
 * The graph package's entry point for the code around it (bin/, workers/, scripts/, bench/, e2e/):
 * configuration, logging, the database and its backups, stored files, and the small shared platform
 * pieces. The server itself is in app.ts (it loads every area: only what serves or tests HTTP needs
 * it). Nothing outside graph/ imports graph/src by another path (eslint.config.js).
 */

export * from './config/config.js';
export * from './db/backup/index.js';
export * from './db/embedded.js';
export * from './db/orm.js';
export * from './lib/files/index.js';
export * from './lib/xlsx/cell.js';
export * from './platform/errors.js';
export * from './platform/file-storage.js';
export * from './platform/logger.js';
export * from './platform/net.js';
export * from './platform/paths.js';
export * from './platform/readiness.js';
export * from './platform/secret.js';
export * from './platform/signals.js';
export * from './platform/sql.js';
