import type { Database, SessionConnection } from '../../storage/connection.ts';
import { openPglite } from './pgliteDatabase.ts';
import { openPostgres } from './postgresDatabase.ts';

export type { Database, SessionConnection };

/**
 * PostgreSQL at `databaseUrl`, else PGlite in `dataDir` (in memory when null). `pgliteFrom`, for a
 * PGlite in memory only, is a data folder's tarball (PGlite's `dumpDataDir`) to start from instead
 * of an empty cluster: the tests' migrated template (server/testing/testDatabase.ts).
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir?: string | null;
  poolSize?: number;
  pgliteFrom?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 20);
  return openPglite(options.dataDir ?? null, options.dataDir ? undefined : options.pgliteFrom);
}
