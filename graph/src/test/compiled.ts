import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The workers CLI as `npm run workers` runs it: compiled, from dist/ (the unit tests' global setup
 * builds dist/ once before any file runs). Tests that start it as a child process use this rather
 * than the TypeScript through the SWC loader, which compiled the whole tree again in every child
 * (seconds each, minutes on a busy machine).
 */
export const workersCli = path.join(repoRoot, 'dist/workers/src/main.js');
