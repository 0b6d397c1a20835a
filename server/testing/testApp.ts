import pino, { type Logger } from 'pino';
import { buildApp, type App } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { startPlatform, type Platform } from '../platform.ts';
import { type ContractCheck, withContractCheck } from './contract.ts';
import { migratedPglite, openTestDatabase } from './testDatabase.ts';

/**
 * The real app on a fresh database (PGlite in memory, or a new PostgreSQL database when
 * DATABASE_URL is set), for tests that speak HTTP to it. Every JSON answer is checked against the
 * app's published OpenAPI document (server/testing/contract.ts; CONTRACT_CHECK=off leaves it out):
 * `close` throws the answers that did not match, `contract` hands them to a test that expects them.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  beforeReady?: (app: App) => unknown,
  logger: Logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
): Promise<{
  app: App;
  platform: Platform;
  close: () => Promise<void>;
  contract: ContractCheck | null;
}> {
  // On PostgreSQL a fresh database for this file; on PGlite the platform opens its own in memory,
  // from the migrated template (testDatabase.ts).
  const database = process.env.DATABASE_URL ? await openTestDatabase('postgres') : null;
  const config = loadConfig(
    { ...process.env, DATABASE_URL: database?.url ?? '' },
    { inMemory: true, demo: false, logLevel: 'silent', prettyLogs: false, ...overrides },
  );
  const platform = await startPlatform(
    config,
    logger,
    database ? {} : { pgliteFrom: await migratedPglite() },
  );
  const { app, contract } = await withContractCheck(() => buildApp(platform));
  if (beforeReady) await beforeReady(app);
  await app.ready();
  return {
    app,
    platform,
    contract,
    async close() {
      await app.close();
      await platform.close();
      if (database) await database.drop();
      contract?.assertClean();
    },
  };
}
