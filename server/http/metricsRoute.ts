import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import type { App } from './routeContext.ts';

/** The route label of a request no route matched (unknown paths, and the client's pages from the not-found handler). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Hashed first, so that the comparison takes the same time whatever the presented token's length. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `Authorization` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && Boolean(match);
}

/**
 * Times every answer by its route pattern (registered before the routes, so each of them gets the
 * hook) and serves `GET /metrics` (server/http/metrics.ts), with `Authorization: Bearer
 * <METRICS_TOKEN>` when METRICS_TOKEN is set.
 *
 * Outside the API's per-address rate limit: a scraper often shares its address with other callers
 * (a proxy without TRUST_PROXY, a node's NAT), and refusing the scrape would blank the graphs exactly
 * when the server is busiest. A scrape costs little, and scrapes that arrive together share one reading
 * of the read models.
 */
export function registerMetrics(app: App) {
  const { metrics, config } = app.platform;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const expected = config.metricsToken ? digest(config.metricsToken) : null;
  app.get(
    '/metrics',
    {
      // Not part of the API's documentation: Prometheus' text format, for the operators (README "Metrics").
      schema: { hide: true },
      config: { public: true, rateLimit: false },
    },
    async (request, reply) => {
      if (expected && !bearerMatches(request.headers.authorization, expected)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new UnauthorizedError('The metrics need the bearer token of METRICS_TOKEN');
      }
      const text = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    },
  );
}
