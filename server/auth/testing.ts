import fastifyJwt from '@fastify/jwt';
import Fastify from 'fastify';
import { sql, type Kysely } from 'kysely';
import { up } from '../../migrations/2026_11_22_1000_auth_files_mail.ts';
import { openTestDatabase, type TestDatabase } from '../testing/testDatabase.ts';
import type { TokenService } from './tokens.ts';

/**
 * A fresh test database with the auth, outbox and files tables. Runs this folder's migration itself
 * only while migrations/index.ts does not list it yet, so the tests work before and after it is.
 */
export async function openAuthTestDatabase(): Promise<TestDatabase> {
  const database = await openTestDatabase();
  const { rows } = await sql<{
    table: string | null;
  }>`SELECT to_regclass('refresh_tokens')::text AS table`.execute(database.db);
  // A migration takes a database of any schema.
  if (!rows[0]?.table) await up(database.db as Kysely<unknown>);
  return database;
}

/**
 * Binds a token service outside an HTTP app, as `buildApp` does: @fastify/jwt registered with the
 * service's options on a bare Fastify instance, closed when the test ends.
 */
export async function withAccessJwt<T extends TokenService>(
  service: T,
  teardown: (fn: () => Promise<void>) => void,
): Promise<T> {
  const host = Fastify();
  await host.register(fastifyJwt, service.jwtOptions);
  await host.ready();
  service.useJwt(host.jwt);
  teardown(() => host.close());
  return service;
}
