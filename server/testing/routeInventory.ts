import { randomUUID } from 'node:crypto';
import type { App, InventoriedRoute } from '../app.ts';

/** A route as the access table names it: `"PUT /api/users/:id"`. */
export type RouteKey = `${string} /${string}`;

export const routeKey = (route: Pick<InventoriedRoute, 'method' | 'url'>): RouteKey =>
  `${route.method} ${route.url}` as RouteKey;

/**
 * Not the product's API: Swagger UI, the CORS preflight, and the hidden routes outside /api: the
 * built client's files (server/http/clientAssets.ts) and `GET /metrics` (server/http/metricsRoute.ts,
 * with its own spec).
 */
const isInfrastructure = (route: Pick<InventoriedRoute, 'method' | 'url' | 'schema'>) =>
  route.url === '/api/docs' ||
  route.url.startsWith('/api/docs/') ||
  (route.method === 'OPTIONS' && route.url === '*') ||
  (!route.url.startsWith('/api/') && (route.schema as { hide?: boolean } | null)?.hide === true);

/**
 * The app's routes as `app.routeInventory` recorded them, without the HEAD twin Fastify adds to
 * every GET, the static and client wildcard routes, `/api/docs*` and `OPTIONS *`; one entry per
 * method and path, sorted by path then method.
 */
export function apiRoutes(app: App): InventoriedRoute[] {
  const gets = new Set(
    app.routeInventory.filter((route) => route.method === 'GET').map((route) => route.url),
  );
  const seen = new Set<string>();
  return app.routeInventory
    .filter(
      (route) => !(route.method === 'HEAD' && gets.has(route.url)) && !isInfrastructure(route),
    )
    .filter((route) => {
      const key = routeKey(route);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

/** The keys of {@link apiRoutes}. */
export const apiRouteKeys = (app: App): RouteKey[] => apiRoutes(app).map(routeKey);

/** The path parameters of a route, in order: `/api/tours/:id/assign/:assigneeId` → `['id', 'assigneeId']`. */
export const pathParams = (url: string): string[] =>
  [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);

/** The route's path with its parameters filled in; a parameter not given gets a fresh UUID (an unknown id). */
export const fillPath = (url: string, params: Readonly<Record<string, string>> = {}): string =>
  url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
    encodeURIComponent(params[name] ?? randomUUID()),
  );
