import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the real platform (graph server + embedded PostgreSQL, serving web/dist) driven
 * by Chromium through playwright-core. Build the web first: `npm run build:web`.
 */
const e2eWorkers = Math.max(1, Number(process.env.E2E_WORKERS) || 2);

const serverConditions = defaultServerConditions.filter((c) => c !== 'module');

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  // The workspace packages (@intranet/graph, @intranet/schema) as TypeScript: their `source` export
  // (with vitest's own server conditions, which leave out `module`).
  ssr: { resolve: { conditions: ['source', ...serverConditions] } },
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    // Files run on E2E_WORKERS workers (default 2), each against its own platform (global-setup.ts).
    maxWorkers: e2eWorkers,
    // A poll waits for the app, not for a fixed second: under two browsers at once a round trip can take longer.
    expect: { poll: { timeout: 15_000 } },
    testTimeout: 180_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    pool: 'forks',
  },
});
