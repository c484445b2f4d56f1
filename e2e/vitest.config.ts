import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the real platform (graph server + embedded PostgreSQL, serving web/dist) driven
 * by Chromium through playwright-core. Build the web first: `npm run build:web`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    pool: 'forks',
  },
});
