import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain .mjs script without type declarations
import { inlineGraphql } from './scripts/inline-graphql.mjs';
// @ts-expect-error a plain .mjs script without type declarations
import { precompress } from './scripts/precompress.mjs';
// @ts-expect-error a plain .mjs script without type declarations
import { screenChunkGroups } from './scripts/screen-chunks.mjs';

/**
 * The production path is `npm run build:web` → web/dist, served by the graph server with an SPA
 * fallback. `npm run dev` starts the server and this dev server (:5173, hot reload), which proxies
 * the server's paths to it on the same `PORT` the server reads (default 4000; VITE_GRAPH_URL
 * overrides the whole address). The proxy keeps the browser's Host, so the server's WebSocket
 * Origin check sees a same-origin request.
 */
declare const process: { env: Record<string, string | undefined> };
const graphUrl = process.env.VITE_GRAPH_URL ?? `http://127.0.0.1:${process.env.PORT || 4000}`;
// scripts/build.mjs: 'plan' in its first pass (nothing written), then the plan of the screens' chunks.
const screenChunks = process.env.SCREEN_CHUNKS;
const planning = screenChunks === 'plan';

export default defineConfig({
  // @intranet/schema (the Tokyo calendar, faces) as TypeScript: its `source` export.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  plugins: [
    inlineGraphql({
      srcDir: fileURLToPath(new URL('./src/', import.meta.url)),
      gqlDir: fileURLToPath(new URL('./src/gql/', import.meta.url)),
    }),
    react(),
    !planning && precompress(),
  ],
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    // Which chunks and CSS each screen loads: scripts/prerender.mjs links the sign-in page's into its HTML.
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: screenChunks && !planning ? screenChunkGroups(JSON.parse(screenChunks)) : undefined },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: graphUrl, ws: true },
      '/api': { target: graphUrl },
      '/healthz': { target: graphUrl },
    },
  },
});
