// `npm run build` (web): the app built in two passes (scripts/screen-chunks.mjs), then the
// pre-rendered first screens (scripts/prerender.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { planScreenChunks } from './screen-chunks.mjs';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const configFile = path.join(webDir, 'vite.config.ts');

// The first pass writes nothing (vite.config.ts leaves out the plugins that write files).
process.env.SCREEN_CHUNKS = 'plan';
const planned = await build({ root: webDir, configFile, logLevel: 'warn', build: { write: false } });
const output = (Array.isArray(planned) ? planned : [planned]).flatMap((o) => o.output);
process.env.SCREEN_CHUNKS = JSON.stringify(
  planScreenChunks(output, { login: 'src/features/auth/LoginPage.tsx', shell: 'src/app/layout/AppShell.tsx' }),
);
await build({ root: webDir, configFile });
