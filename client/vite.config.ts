import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Absolute paths, so the config behaves the same whether Vite or Vitest is started from the
// repository root (`--config client/vite.config.ts`) or from inside client/.
const clientDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = fileURLToPath(new URL('..', import.meta.url));
const apiTarget = `http://localhost:${process.env.PORT ?? '3000'}`;

/** PrimeReact's base (api, utilities, the component base, transitions, overlays) and the button every screen shows. */
const primeReactCore = /node_modules[\\/](primereact[\\/](api|utils|componentbase|hooks|ripple|iconbase|portal|csstransition|overlayservice|tooltip|button|icons[\\/]spinner)|react-transition-group|dom-helpers|@babel[\\/]runtime)[\\/]/;

/** client/src/i18n/{lng}.json and client/src/i18n/areas/{area}/{lng}.json */
const localeFile = /[\\/]src[\\/]i18n[\\/](?:areas[\\/][\w-]+[\\/])?(\w+)\.json$/;
const localeChunkName = (id: string) => {
  const language = localeFile.exec(id)?.[1];
  return language ? `locale-${language}` : null;
};

export default defineConfig({
  root: clientDir,
  // One cache for Vite and Vitest, in the repository's node_modules rather than a client/node_modules.
  cacheDir: fileURLToPath(new URL('../node_modules/.vite', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/client', import.meta.url)),
    emptyOutDir: true,
    // Top-level await (and the rest of ES2022) must survive the build.
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay in browser caches.
        // Named packages only: a catch-all node_modules group would pull lazily loaded libraries
        // (ol for the map routes) into the first page load. Likewise only PrimeReact's core, which
        // every screen uses, has a group: each component goes with the pages that use it, where one
        // chunk of all of them weighed 160 KB gzip on every first load.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/](i18next|react-i18next|jotai|wouter)[\\/]/ },
            { name: 'primereact', test: primeReactCore },
            // One chunk per language (its base file and its areas' files), fetched when the language is first shown.
            { name: localeChunkName, debugName: 'locale', test: localeFile },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true, ws: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  test: {
    environment: 'jsdom',
    // Test globs are written from the repository root, where `npm run test:client` runs.
    dir: repoDir,
    include: ['client/src/**/*.test.tsx', 'client/src/**/*.test.ts'],
    setupFiles: [fileURLToPath(new URL('./src/test/setup.ts', import.meta.url))],
  },
});
