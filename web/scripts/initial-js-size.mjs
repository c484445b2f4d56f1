// The JS a browser loads before the first screen renders: the entry script of web/dist/index.html
// and every chunk it preloads, gzipped. `npm --workspace web run size` after a build.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export function initialJs(dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...new Set(
      [
        ...html.matchAll(/<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g),
      ].map((m) => m[1]),
    ),
  ];
  return files.map((f) => {
    const buf = fs.readFileSync(path.join(dist, f.replace(/^\//, '')));
    return { file: f, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = initialJs();
  for (const r of rows) console.log(`${(r.gzip / 1024).toFixed(1).padStart(7)} KB gz  ${r.file}`);
  const raw = rows.reduce((a, r) => a + r.bytes, 0);
  const gz = rows.reduce((a, r) => a + r.gzip, 0);
  console.log(`initial JS: ${(raw / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzipped (${rows.length} files)`);
}
