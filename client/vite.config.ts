/// <reference types="vitest/config" />
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';

// Absolute paths, so the config behaves the same whether Vite or Vitest is started from the
// repository root (`--config client/vite.config.ts`) or from inside client/.
const clientDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = fileURLToPath(new URL('..', import.meta.url));
const apiTarget = `http://localhost:${process.env.PORT ?? '3000'}`;

/** PrimeReact's base (api, utilities, the component base, transitions, overlays) and the button every screen shows. */
const primeReactCore =
  /node_modules[\\/](primereact[\\/](api|utils|componentbase|hooks|ripple|iconbase|portal|csstransition|overlayservice|tooltip|button|icons[\\/]spinner)|react-transition-group|dom-helpers|@babel[\\/]runtime)[\\/]/;

/** client/src/i18n/{lng}.json and client/src/i18n/areas/{area}/{lng}.json */
const localeFile = /[\\/]src[\\/]i18n[\\/](?:areas[\\/][\w-]+[\\/])?(\w+)\.json$/;
const localeChunkName = (id: string) => {
  const language = localeFile.exec(id)?.[1];
  return language ? `locale-${language}` : null;
};

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Text formats worth compressing; images other than SVG and fonts (woff2) are compressed already. */
const compressible = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.map',
  '.webmanifest',
  '.ttf',
  '.eot',
]);

/**
 * Writes a .br (quality 11) and a .gz (level 9) beside every compressible file of the build over 1 KB,
 * index.html included, when the compressed file is smaller; the server picks one by Accept-Encoding.
 * A few lines over node:zlib rather than a plugin dependency: the build is the only place this runs,
 * and the highest brotli quality costs a second or two here instead of CPU on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).map((file) => join(outDir, file));
      await Promise.all(
        files
          .filter((file) => compressible.has(extname(file)))
          .map(async (file) => {
            if (!(await stat(file)).isFile()) return;
            const raw = await readFile(file);
            if (raw.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(raw, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
                },
              }),
              gzipped(raw, { level: 9 }),
            ]);
            if (br.length < raw.length) await writeFile(`${file}.br`, br);
            if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
}

/**
 * Preloads the icon font: the sign-in page's first paint shows icons (brand, language, password), and
 * a font is only requested once the page renders a glyph of it, after every script has run.
 */
function preloadIconFont(): Plugin {
  return {
    name: 'preload-icon-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle ?? {};
        const font = Object.keys(bundle).find((file) => /primeicons-[\w-]+\.woff2$/.test(file));
        // The theme stylesheet is added by the entry script: the default (dark) one is fetched with
        // it rather than after it, whatever the system's scheme, so a first visit paints dark at once.
        const darkTheme = Object.values(bundle).find(
          (output) =>
            output.type === 'asset' &&
            (output.originalFileNames ?? []).some((name) =>
              name.endsWith('themes/lara-dark-amber/theme.css'),
            ),
        )?.fileName;
        const themes = darkTheme
          ? [
              {
                tag: 'link',
                attrs: { rel: 'preload', href: `/${darkTheme}`, as: 'style' },
                injectTo: 'head' as const,
              },
            ]
          : [];
        return [
          ...(font
            ? [
                {
                  tag: 'link',
                  attrs: {
                    rel: 'preload',
                    href: `/${font}`,
                    as: 'font',
                    type: 'font/woff2',
                    crossorigin: '',
                  },
                  injectTo: 'head' as const,
                },
              ]
            : []),
          ...themes,
        ];
      },
    },
  };
}

/** The service worker's source: built to /sw.js (a fixed name, at the root so its scope is the whole app). */
const serviceWorkerSource = fileURLToPath(new URL('./src/pwa/sw.ts', import.meta.url));
const SHELL_PLACEHOLDER = '__SHELL_MANIFEST__';

/**
 * Builds client/src/pwa/sw.ts into /sw.js and writes into it the list of files it precaches: the app
 * shell that opens /driver without a network. That is index.html, the entry's chunks and their
 * styles, the layout's lazy parts (menu, drawer, customizer), the driver page's chunk with its
 * imports, the locales (a driver reads any of the six), every stylesheet and the icon font, the
 * manifest and the icons. A small hand-written worker rather than vite-plugin-pwa (which supports
 * Vite 8): workbox-build would bring a second bundler and Babel into the lock file for a worker of
 * seventy lines, and the list needs the route's chunk graph, which the bundle here knows exactly.
 */
function serviceWorker(): Plugin {
  return {
    name: 'service-worker',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: serviceWorkerSource, fileName: 'sw.js' });
    },
    // After Vite's own generateBundle, which drops the chunks that held only CSS.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const worker = bundle['sw.js'];
        if (worker?.type !== 'chunk') return;
        const chunks = new Map(
          Object.values(bundle).flatMap((output) =>
            output.type === 'chunk' && output !== worker
              ? [[output.fileName, output] as const]
              : [],
          ),
        );
        const files = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = chunks.get(fileName);
          if (!chunk || files.has(fileName) || !(fileName in bundle)) return;
          files.add(fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
          for (const asset of chunk.viteMetadata?.importedAssets ?? []) files.add(asset);
          for (const imported of chunk.imports) visit(imported);
        };
        const module = (chunk: { facadeModuleId?: string | null }) =>
          (chunk.facadeModuleId ?? '').replaceAll('\\', '/');
        for (const chunk of chunks.values()) {
          const id = module(chunk);
          if (
            chunk.isEntry ||
            /\/src\/app\/[^/]+\.tsx$/.test(id) ||
            id.endsWith('/src/pages/driver/DriverPage.tsx') ||
            chunk.name.startsWith('locale-')
          )
            visit(chunk.fileName);
        }
        for (const output of Object.values(bundle)) {
          // Stylesheets are small; of the fonts only the icons' (the theme's Inter is never shown: system fonts).
          if (
            output.type === 'asset' &&
            /(\.css|\/primeicons-[\w-]+\.woff2)$/.test(output.fileName)
          )
            files.add(output.fileName);
        }
        const shellFiles = [
          '/index.html',
          ...[...files].sort().map((file) => `/${file}`),
          '/manifest.webmanifest',
          ...[192, 512].flatMap((size) => [
            `/icons/icon-${size}.png`,
            `/icons/icon-maskable-${size}.png`,
          ]),
        ];
        const version = createHash('sha256')
          .update(shellFiles.join('\n'))
          .digest('hex')
          .slice(0, 12);
        // Inside a string literal of the built code: the JSON, escaped as a string's content.
        const manifest = JSON.stringify(JSON.stringify({ version, files: shellFiles })).slice(
          1,
          -1,
        );
        if (!worker.code.includes(SHELL_PLACEHOLDER))
          this.error('sw.js: the shell list placeholder is missing from the built worker');
        worker.code = worker.code.replace(SHELL_PLACEHOLDER, manifest);
      },
    },
  };
}

export default defineConfig({
  root: clientDir,
  // One cache for Vite and Vitest, in the repository's node_modules rather than a client/node_modules.
  cacheDir: fileURLToPath(new URL('../node_modules/.vite', import.meta.url)),
  plugins: [react(), preloadIconFont(), serviceWorker(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/client', import.meta.url)),
    emptyOutDir: true,
    // Top-level await (and the rest of ES2022) must survive the build.
    target: 'es2022',
    // No modulepreload links in index.html: on a slow line two dozen of them compete with the stylesheet
    // and the first paint, and the entry asks for its imports at once anyway. Lazy chunks keep theirs.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? [] : deps),
    },
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
    // A whole screen test (render, type, wait for the answer) on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
