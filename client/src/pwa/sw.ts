/**
 * The driver app's service worker, built to /sw.js by the `serviceWorker` plugin of vite.config.ts,
 * which writes the shell's file list into `SHELL` (index.html, the entry's and the /driver route's
 * hashed files, the locales, the manifest and icons).
 *
 * - Install: the shell goes into a cache named after the build, so /driver opens without a network.
 * - Navigations: the network first (a fresh index.html naming the newest build), the cached shell
 *   when there is none.
 * - Hashed files (/assets/): from the cache, else the network; what the network gives is kept in a
 *   runtime cache, so a chunk loaded online (a dialog, a component) is there offline too. Hashed files
 *   hold code and styles only; the client deletes the runtime cache at sign-out anyway.
 * - Never /api/ nor /socket.io/: answers with someone's data are always the network's, and none is
 *   stored. The driver's positions wait in IndexedDB (positionQueue.ts) while offline.
 */

/** Replaced by the build with `{"version": "<hash>", "files": ["/index.html", ...]}`. */
const SHELL: { version: string; files: string[] } = JSON.parse('__SHELL_MANIFEST__');

const SHELL_CACHE_PREFIX = 'shell-';
const RUNTIME_CACHE = 'runtime-assets';
const shellCache = `${SHELL_CACHE_PREFIX}${SHELL.version}`;

// The DOM library's types are the project's; the few worker types used here, declared locally.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}
const worker = self as unknown as WorkerScope;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(shellCache)
      .then((cache) => cache.addAll(SHELL.files))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      // An older build's shell (and the runtime files of that build) make way for this one.
      await Promise.all(
        names
          .filter(
            (name) =>
              (name.startsWith(SHELL_CACHE_PREFIX) && name !== shellCache) ||
              name === RUNTIME_CACHE,
          )
          .map((name) => caches.delete(name)),
      );
      await worker.clients.claim();
    })(),
  );
});

const isHashed = (path: string) => path.startsWith('/assets/');
const isStatic = (path: string) => path.startsWith('/icons/') || path === '/manifest.webmanifest';

async function fromShell(request: Request): Promise<Response | undefined> {
  return (await caches.open(shellCache)).match(request);
}

async function navigate(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await (await caches.open(shellCache)).match('/index.html');
    if (shell) return shell;
    throw error;
  }
}

async function hashedFile(request: Request): Promise<Response> {
  const cached =
    (await fromShell(request)) ?? (await caches.match(request, { cacheName: RUNTIME_CACHE }));
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    void caches
      .open(RUNTIME_CACHE)
      .then((cache) => cache.put(request, copy))
      .catch(() => undefined);
  }
  return response;
}

async function staticFile(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await fromShell(request);
    if (cached) return cached;
    throw error;
  }
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  // The API and the realtime channel: never answered from here, never stored.
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/socket.io/')) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (isHashed(url.pathname)) event.respondWith(hashedFile(request));
  else if (isStatic(url.pathname)) event.respondWith(staticFile(request));
});
export {};
