// Vite build plugin: after the build writes web/dist, every text file there (JS, CSS, HTML, SVG,
// JSON) of 1 KB or more gets a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside
// it. The server sends the best one the browser accepts (graph/src/platform/web-app.ts), so the
// most expensive compression runs once per build instead of on every response.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (COMPRESSIBLE.test(e.name)) yield p;
  }
}

/** Writes `<file>.br` and `<file>.gz` beside `file` when it is 1 KB or more; returns the byte counts (null when too small). */
export async function precompressFile(file) {
  const raw = fs.readFileSync(file);
  if (raw.length < MIN_BYTES) return null;
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
    gzip(raw, { level: 9 }),
  ]);
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  return { raw: raw.length, br: br.length, gzip: gz.length };
}

/** Writes `<file>.br` and `<file>.gz` for the compressible files under `dir`; returns the byte counts. */
export async function precompressDir(dir) {
  const totals = { files: 0, raw: 0, br: 0, gzip: 0 };
  await Promise.all(
    [...files(dir)].map(async (file) => {
      const sizes = await precompressFile(file);
      if (!sizes) return;
      totals.files++;
      totals.raw += sizes.raw;
      totals.br += sizes.br;
      totals.gzip += sizes.gzip;
    }),
  );
  return totals;
}

export function precompress() {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const t = await precompressDir(outDir);
      const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
      console.log(`precompress: ${t.files} files, ${kb(t.raw)} → ${kb(t.br)} br, ${kb(t.gzip)} gzip`);
    },
  };
}
