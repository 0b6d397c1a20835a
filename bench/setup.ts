import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { buildApp, type App } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { startPlatform, type Platform } from '../server/platform.ts';
import type { DB } from '../storage/schema.ts';
import { openTestDatabase } from '../server/testing/testDatabase.ts';

process.env.RATE_LIMIT_PER_MINUTE ??= '1000000000';
// T9 and the simulation open a thousand sockets of one user, each watching a tour.
process.env.SOCKET_USER_EVENTS_PER_SECOND ??= '1000000';

export type Backend = 'pglite' | 'postgres';
export const backends = (): Backend[] =>
  process.env.DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];

/**
 * Starts a baseline's statement: it then runs the way the plain driver runs it, parsed and planned
 * every time (PGlite's query; pg's unnamed statement). The product prepares the statements with
 * parameters that begin with their verb: every one on PGlite, those outside a transaction on
 * PostgreSQL's request pool (server/db/database.ts); a leading comment keeps a baseline out.
 */
export const plainStatement = sql`/* baseline */ `;

export type BenchApp = {
  app: App;
  platform: Platform;
  url: string;
  db: Kysely<DB>;
  close(): Promise<void>;
};

/** The real server on a fresh database of that backend, listening on a loopback port. */
export async function startBenchApp(
  backend: Backend,
  options: { runProjections?: boolean } = {},
): Promise<BenchApp> {
  const database = await openTestDatabase(backend);
  if (!database.url) await database.close();
  const config = loadConfig(
    { ...process.env, DATABASE_URL: database.url ?? '' },
    {
      inMemory: true,
      demo: false,
      logLevel: 'silent',
      prettyLogs: false,
      runProjections: options.runProjections ?? true,
    },
  );
  const platform = await startPlatform(config, pino({ level: 'silent' }));
  const app = await buildApp(platform);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    platform,
    url: `http://127.0.0.1:${port}`,
    db: platform.database.db,
    async close() {
      await app.close();
      await platform.close();
      if (database.url) await database.drop();
    },
  };
}

/** A bare Fastify server (no plugins, no hooks) for the baselines. */
export async function bareServer(
  register: (app: FastifyInstance) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  register(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
