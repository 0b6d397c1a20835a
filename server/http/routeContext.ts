/**
 * What a route module receives: the Fastify instance with the zod type provider, decorated with the
 * platform (store, database, commands, projections) and the route inventory. Route modules import
 * this type, never `server/app.ts`, which imports them.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Platform } from '../platform.ts';
import type { Consistency } from './consistency.ts';

// biome-ignore lint/suspicious/noExplicitAny: the server, request and reply types of whichever HTTP server Fastify runs on
export type App = FastifyInstance<any, any, any, Logger, ZodTypeProvider>;

/** One registered route and how it is guarded: read by the authorization matrix test. */
export type InventoriedRoute = {
  method: string;
  url: string;
  public: boolean;
  /** The codes of the route's `can(...)` guard; null when it has none. */
  permissions: readonly number[] | null;
  /** Where the guard runs: it belongs in `onRequest`, before the body is parsed and validated. */
  guardHook: 'onRequest' | 'preHandler' | null;
  /** The route's zod schemas of the request, as registered: read by the fuzz suite to derive inputs. */
  schema: { body?: unknown; querystring?: unknown; params?: unknown } | null;
  /** `config.whilePending`: open to the users of a Pending organization too. */
  whilePending: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    /** Every route as it was registered, with `config.public` and the codes of its `can(...)` guard. */
    routeInventory: InventoriedRoute[];
    /** Consistency tokens: what a command answers with, and the wait of the requests that carry one. */
    consistency: Consistency;
  }
}
