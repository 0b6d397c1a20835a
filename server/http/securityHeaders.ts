/**
 * The security headers of every answer, in three sets chosen by the path, each built once (none
 * depends on the request):
 * - documents (the client's pages, the service worker, the API's HTML documentation): helmet's
 *   full set with the page's Content-Security-Policy (contentSecurity.ts);
 * - the API's answers (`/api/…`): JSON or attachments, never rendered as a page, so the short set an
 *   API needs: `default-src 'none'; frame-ancestors 'none'`, nosniff, DENY framing, HSTS, no referrer
 *   and the same-origin policies. A response fetched by a script or an <img> ignores a document's
 *   headers; these keep a navigated-to answer inert. About 500 bytes of headers less on every API answer;
 * - hashed assets (`/assets/…`): what a script, stylesheet or font acts on (nosniff, the resource
 *   policy, HSTS), without the document-only headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { contentSecurityDirectives } from './contentSecurity.ts';

type HeaderList = [string, string][];

/** Headers only a document (or a worker) acts on. */
const DOCUMENT_ONLY = new Set([
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);
/** What an API answer keeps of the document's set; its CSP and framing are replaced by the strictest. */
const API_KEPT = new Set([
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
]);
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaderSets(
  config: Pick<Config, 'mapTileUrl' | 'contentfulSpaceId' | 'contentfulAccessToken'>,
) {
  const document = headersSetBy(
    helmet({
      contentSecurityPolicy: { directives: contentSecurityDirectives(config) },
      crossOriginEmbedderPolicy: false,
    }),
  );
  const api: HeaderList = [
    ['content-security-policy', API_CONTENT_SECURITY_POLICY],
    ['x-frame-options', 'DENY'],
    ...document.filter(([name]) => API_KEPT.has(name)),
  ];
  const asset = document.filter(([name]) => !DOCUMENT_ONLY.has(name));
  return { document, api, asset };
}

/** The onRequest hook that sets the path's set: `/api/` (but its HTML documentation) and `/assets/` have their own. */
export function securityHeadersHook(config: Parameters<typeof securityHeaderSets>[0]) {
  const sets = securityHeaderSets(config);
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const url = request.url;
    const list = url.startsWith('/api/')
      ? url.startsWith('/api/docs')
        ? sets.document
        : sets.api
      : url.startsWith('/assets/')
        ? sets.asset
        : sets.document;
    for (const [name, value] of list) reply.raw.setHeader(name, value);
    done();
  };
}

/** The headers a request-independent middleware (helmet's) sets, in its order. */
function headersSetBy(
  middleware: (
    request: IncomingMessage,
    response: ServerResponse,
    next: (error?: unknown) => void,
  ) => void,
): HeaderList {
  const headers: HeaderList = [];
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name.toLowerCase(), String(value)]);
      return response;
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  let failed: unknown = null;
  middleware(
    { headers: {}, method: 'GET', url: '/' } as IncomingMessage,
    response as unknown as ServerResponse,
    (error) => {
      failed = error ?? null;
    },
  );
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}
