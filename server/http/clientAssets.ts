import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from './routeContext.ts';

/**
 * Vite names everything under assets/ by its content's hash: a changed file is a new URL. Cached for
 * a year as immutable, so no validator (ETag, Last-Modified) is ever used: none is sent. They carry
 * the asset set of security headers, without the document-only ones (securityHeaders.ts).
 */
const hashedFiles = {
  maxAge: 365 * 24 * 60 * 60 * 1000,
  immutable: true,
  etag: false,
  lastModified: false,
} as const;

/** index.html and the unhashed files (public/): kept, but revalidated with ETag / Last-Modified on every use. */
const revalidatedFiles = { cacheControl: false } as const;

/** Built from client/src/pwa/sw.ts; the manifest (manifest.webmanifest) and icons/ come from client/public. */
const SERVICE_WORKER = 'sw.js';

/** The answer's encoding follows Accept-Encoding: the build wrote a .br and a .gz beside each file worth compressing. */
const precompressed = ['.br', '.gz'];

/**
 * Serves the built client (dist/client) the way a production web server does: the build's brotli
 * and gzip files by content negotiation (`Vary: Accept-Encoding`), hashed assets cached for a year as
 * immutable, everything else revalidated. These routes are outside the API's per-address rate limit:
 * a first visit fetches a dozen files, and the limit is there for the API. Client-routed pages
 * (`/signin`, `/loads/carrier`, ...) get index.html from `sendClientPage` in the not-found handler.
 * Returns false, registering nothing, when the client is not built.
 */
export async function registerClientAssets(app: App, clientDir: string): Promise<boolean> {
  if (!existsSync(path.join(clientDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: clientDir,
    serve: false,
    index: false,
    preCompressed: true,
  });
  const config = { rateLimit: false } as const;
  const schema = { hide: true } as const;

  app.get('/assets/*', { config, schema }, (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return reply.sendFile(`assets/${file}`, hashedFiles);
  });
  app.get('/', { config, schema }, (_request, reply) => sendClientPage(reply));
  // The build's other top-level files and folders (favicon, robots.txt, content/), each its own route,
  // so that no catch-all route takes the API's unknown paths out of the not-found handler.
  for (const entry of readdirSync(clientDir, { withFileTypes: true })) {
    if (entry.name === 'assets' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      app.get(`/${entry.name}/*`, { config, schema }, (request, reply) =>
        sendRevalidated(reply, `${entry.name}/${(request.params as { '*': string })['*']}`),
      );
    } else if (entry.isFile() && entry.name === SERVICE_WORKER) {
      // The driver app's service worker (client/src/pwa/sw.ts): revalidated like index.html, so a new
      // build's worker is found on the next visit; its scope is the whole app.
      app.get(`/${entry.name}`, { config, schema }, (_request, reply) =>
        sendRevalidated(reply.header('service-worker-allowed', '/'), entry.name),
      );
    } else if (entry.isFile() && !precompressed.includes(path.extname(entry.name))) {
      app.get(`/${entry.name}`, { config, schema }, (_request, reply) =>
        sendRevalidated(reply, entry.name),
      );
    }
  }
  return true;
}

const sendRevalidated = (reply: FastifyReply, file: string) =>
  reply.header('cache-control', 'no-cache').sendFile(file, revalidatedFiles);

/** index.html, for `/` and every path the client routes: never stale, since it names the hashed assets of the current build. */
export const sendClientPage = (reply: FastifyReply) => sendRevalidated(reply, 'index.html');
