/**
 * `npm run dev`: the platform from its TypeScript (bin/start.ts through the SWC loader, on `PORT`,
 * default 4000) and Vite's dev server for the web app (http://localhost:5173, hot reload), which
 * proxies /graphql (HTTP and WebSocket), /api and /healthz to that `PORT` (web/vite.config.ts).
 * Open the Vite URL. The typed GraphQL documents are generated first (`npm run codegen`), as
 * `npm run build:web` does. Ctrl-C or SIGTERM stops both; when one exits, the other is stopped.
 * Arguments go to Vite (`npm run dev -- --port 5174`). `npm run dev:server` runs the platform alone.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, PORT: process.env.PORT || '4000' };

execFileSync(bin('graphql-codegen'), ['--config', 'codegen.yml'], { cwd: root, stdio: 'inherit' });

const children = [
  spawn(process.execPath, ['--conditions=source', '--import', '@swc-node/register/esm-register', 'bin/start.ts'], {
    cwd: root,
    env,
    stdio: 'inherit',
  }),
  spawn(bin('vite'), process.argv.slice(2), { cwd: path.join(root, 'web'), env, stdio: 'inherit' }),
];

let exitCode = 0;
let stopping = false;
function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill(signal);
}
for (const c of children) {
  c.on('exit', (code, signal) => {
    if (!stopping) exitCode = code ?? (signal ? 1 : 0);
    stopAll('SIGTERM');
    if (children.every((x) => x.exitCode !== null || x.signalCode !== null)) process.exit(exitCode);
  });
}
// A terminal's Ctrl-C reaches the children too (same process group); this covers a SIGTERM sent to us alone.
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => stopAll(s));
