import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain .mjs script without type declarations
import { inlineGraphql } from './scripts/inline-graphql.mjs';

/**
 * The production path is `npm run build:web` → web/dist, served by the graph server with an SPA
 * fallback. `npm --workspace web run dev` serves the app on :5173 and proxies the server (start it
 * with PORT=4200, or set VITE_GRAPH_URL).
 */
declare const process: { env: Record<string, string | undefined> };
const graphUrl = process.env.VITE_GRAPH_URL ?? 'http://localhost:4200';

export default defineConfig({
  plugins: [
    inlineGraphql({
      srcDir: fileURLToPath(new URL('./src/', import.meta.url)),
      gqlDir: fileURLToPath(new URL('./src/gql/', import.meta.url)),
    }),
    react(),
  ],
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
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
