// After `vite build`: the first screens pre-rendered into web/dist, so a browser paints them from
// the HTML alone instead of waiting for the JS chain (HTML → JS → render). The markup is the app's
// own first render (src/app/boot/prerender.tsx renders the app's providers and route table through
// Vite's SSR loader, so class names match the build), with no session and no server answer yet:
//   index.html                 the session check that every signed-in route shows first
//   login.html                 the sign-in page (`/login`, `/login?next=…`)
//   login-expired.html         … with the 「セッションの有効期限が切れました」 banner (?reason=expired)
//   login-signedOut.html       … with the signed-out banner (?reason=signedOut)
// The server picks the file (graph/src/platform/web-app.ts). Each file carries the CSS its markup
// needs inline (the sign-in files also the sign-in page's chunks' CSS).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { precompressFile } from './precompress.mjs';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(webDir, 'dist');
const LOGIN_CHUNK = 'src/features/auth/LoginPage.tsx';

/** The JS and CSS files a manifest chunk loads with it (its static imports, recursively). */
function closure(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/** The CSS of manifest chunks. */
function cssOf(manifest, keys) {
  return [...keys].flatMap((k) => manifest[k].css ?? []);
}

/**
 * index.html's template with `markup` in #root and every stylesheet the markup needs inlined (the
 * entry's, then the route's): the first paint waits for the HTML only, not for a round trip per
 * stylesheet. The route's chunks are not modulepreloaded here: the entry's preloadRoute fetches
 * them, after the first paint rather than competing with it for a phone's bandwidth.
 */
export function firstScreenHtml(template, markup, { css = [] } = {}) {
  if (!template.includes('<div id="root"></div>'))
    throw new Error('dist/index.html has no empty <div id="root"></div>: run after vite build (npm run build:web)');
  const entryCss = [...template.matchAll(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g)];
  const inline = (files) => files.map((f) => fs.readFileSync(path.join(dist, f), 'utf8')).join('\n');
  const styles = inline([...entryCss.map((m) => m[1]), ...css]);
  if (/<\/style/i.test(styles)) throw new Error('a stylesheet contains </style>');
  // The page paints from the HTML alone, so the app's JS is not fetched as if the paint waited for
  // it: at high priority, Lighthouse's simulation of a phone counts a script that arrived before the
  // first paint among what that paint waited for (its FCP: 0.7 s or 2.2 s by the order of a few ms).
  if (!template.includes('<script type="module" crossorigin src='))
    throw new Error("dist/index.html's entry script is not in the form prerender.mjs expects");
  let html = template
    .replaceAll('<script type="module" crossorigin src=', '<script type="module" crossorigin fetchpriority="low" src=')
    .replaceAll(
      '<link rel="modulepreload" crossorigin href=',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href=',
    );
  for (const m of entryCss) html = html.replace(m[0], '');
  // The route's stylesheets are also named by disabled links (never fetched): Vite's chunk loader
  // takes them for loaded and does not fetch, apply and restyle the page with the same rules again.
  const named = css.map((f) => `    <link rel="stylesheet" href="/${f}" disabled>\n`).join('');
  // data-prerendered tells the app's first render which fields the visitor may have used (src/app/boot/prerendered.ts).
  // Its submit buttons are plain buttons until the app runs: a native submission would send the
  // form to the page's own URL (a password in the query string). public/early-input.js remembers a
  // click on them (or Enter in a field) for the app to submit once it runs.
  const marked = markup
    .replace(/^<div /, '<div data-prerendered="" ')
    .replaceAll('type="submit"', 'type="button" data-submit=""');
  const early = marked.includes('data-submit=""') ? '    <script async src="/early-input.js"></script>\n' : '';
  return html
    .replace('</head>', `    <style>${styles}</style>\n${named}${early}  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${marked}</div>`);
}

async function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const template = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const first = closure(manifest, 'index.html');
  const login = [...closure(manifest, LOGIN_CHUNK)].filter((k) => !first.has(k));

  const server = await createServer({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    // Primer's modules import their CSS: Vite's loader handles those, Node would not.
    ssr: { noExternal: ['@primer/react'] },
    logLevel: 'warn',
  });
  let screens;
  try {
    const { prerenderFirstScreen } = await server.ssrLoadModule('/src/app/boot/prerender.tsx');
    screens = {
      'index.html': [await prerenderFirstScreen('/'), {}],
      'login.html': [await prerenderFirstScreen('/login'), { css: cssOf(manifest, login) }],
      'login-expired.html': [await prerenderFirstScreen('/login?reason=expired'), { css: cssOf(manifest, login) }],
      'login-signedOut.html': [await prerenderFirstScreen('/login?reason=signedOut'), { css: cssOf(manifest, login) }],
    };
  } finally {
    await server.close();
  }
  for (const [name, [markup, files]] of Object.entries(screens)) {
    const file = path.join(dist, name);
    fs.writeFileSync(file, firstScreenHtml(template, markup, files));
    await precompressFile(file);
  }
  console.log(`prerender: ${Object.keys(screens).join(', ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
