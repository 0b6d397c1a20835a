/**
 * The driver's installable app: the service worker (/sw.js, built from sw.ts) is registered once the
 * driver's page (/driver) is shown, directly or after a client-side navigation. Nobody else downloads
 * the shell it precaches; once registered it serves the hashed files of every page from its caches.
 */

/** sw.ts's cache of hashed files fetched at run time (the shell's precache is `shell-<build>`). */
const RUNTIME_CACHE = 'runtime-assets';
const DRIVER_PATH = /^\/driver(\/|$)/;

let registered = false;

function registerOnDriverPage(): void {
  if (registered || !DRIVER_PATH.test(window.location.pathname)) return;
  registered = true;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    registered = false; // a later visit of the page tries again
  });
}

/** Watches the location (wouter announces its pushState and replaceState as window events). Production builds only. */
export function installDriverApp(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  registerOnDriverPage();
  for (const type of ['popstate', 'pushState', 'replaceState'])
    window.addEventListener(type, registerOnDriverPage);
}

/**
 * At sign-out: drops every cache but the shell's precache (index.html and the build's code), so
 * nothing fetched during the session stays behind. The service worker never stores /api/ answers.
 */
export async function clearRuntimeCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const names = await caches.keys();
    await Promise.all(
      names
        .filter((name) => name === RUNTIME_CACHE || !name.startsWith('shell-'))
        .map((name) => caches.delete(name)),
    );
  } catch {
    // Cache storage unavailable (an opaque origin, say): nothing was stored either.
  }
}
