import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * The SQL connection for the event store and the read models: a real PostgreSQL when a URL is
 * given, else PGlite (PostgreSQL in WASM) in a data folder or in memory. Opened by
 * `server/db/database.ts`; the projections' runner works through this type.
 */
export type Database = {
  kind: 'postgres' | 'pglite';
  db: Kysely<DB>;
  /**
   * For the work behind the requests (projections and their reads of the log): on PostgreSQL a
   * small pool of its own, so a burst of requests queued for connections never holds the read
   * models back. On PGlite the same as `db`.
   */
  background: Kysely<DB>;
  /**
   * Runs one statement of `db` outside any transaction. On PostgreSQL as a named prepared statement:
   * each connection parses and plans it once, then only binds and runs it. For the statements every
   * write runs (the append), whose text the code fixes: one distinct text per shape, never built from
   * input. On PGlite, prepared the same way on its one connection (as every statement with
   * parameters is there). `background` runs it on the pool of `background`.
   */
  prepared<R = Record<string, unknown>>(
    text: string,
    values: readonly unknown[],
    options?: { background?: boolean },
  ): Promise<R[]>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * A connection of its own for the life of the process, for session-level advisory locks.
   * On PGlite, the one connection there is.
   */
  session(): Promise<SessionConnection>;
  close(): Promise<void>;
};

export type SessionConnection = {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  release(): Promise<void>;
};
