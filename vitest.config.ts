import os from 'node:os';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import swc from 'unplugin-swc';

/**
 * The suites that start whole processes, a broker or thousands of cases (faults, Kafka, fuzz, scale,
 * hostile files, the Google property test, the workers CLI, backups): their own project, `system`.
 * `npm run test:unit` runs the rest (the fast loop); `npm test` runs both. The unit files share
 * their worker's modules (`isolate: false`): importing the platform per file was most of the loop's
 * time. Every file still gets a database and platform of its own, so only module state is shared.
 */
const SYSTEM = [
  '**/*.faults.test.ts',
  'graph/src/platform/events/kafka/faults.test.ts',
  'graph/src/platform/events/kafka/kafka.test.ts',
  '**/*.kafka.test.ts',
  '**/*.s3.test.ts',
  'graph/src/platform/api-fuzz.test.ts',
  '**/*.scale.test.ts',
  '**/*.hostile.test.ts',
  'workers/src/google-sync/property.test.ts',
  'workers/src/main.cli.test.ts',
  'graph/src/db/backup/backup.test.ts',
];

const ALL = [
  'graph/**/*.test.ts',
  'workers/**/*.test.ts',
  'schema/**/*.test.ts',
  'bench/**/*.test.ts',
  'web/scripts/**/*.test.ts',
  'web/src/**/*.test.ts',
  'scripts/**/*.test.ts',
];

const serverConditions = defaultServerConditions.filter((c) => c !== 'module');

export default defineConfig({
  plugins: [
    swc.vite({
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        target: 'es2022',
        keepClassNames: true,
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      },
    }),
  ],
  // Load graphql as Node does (CommonJS), or vite's "module" field gives our code a second copy.
  // The workspace packages (@intranet/graph, @intranet/schema) as TypeScript: their `source` export
  // (with vitest's own server conditions, which leave out `module`).
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  ssr: { resolve: { conditions: ['source', ...serverConditions] } },
  test: {
    // Web modules import Primer, whose files import CSS: vite (not Node) must load them.
    server: { deps: { inline: [/@primer\//] } },
    globalSetup: ['graph/src/test/global-setup.ts'],
    pool: 'forks',
    // Two files at a time (vitest's default is one on 2 cores): each clones its own database from the
    // template, and most of a file's time is waiting on PostgreSQL, Kafka or a child process.
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ALL, exclude: ['e2e/**', '**/node_modules/**', ...SYSTEM], isolate: false },
      },
      { extends: true, test: { name: 'system', include: SYSTEM } },
    ],
  },
});
