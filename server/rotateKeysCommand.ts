/**
 * `npm run rotate-keys`: a new signing key for access tokens and a new sealing key for the ELD
 * credentials and webhook secrets, which are sealed again in the same transaction
 * (server/cluster/rotateKeys.ts). Running servers on PostgreSQL pick the new keys up within seconds;
 * tokens signed before stay valid until they expire. On PGlite, stop the server first (one process
 * owns its DATA_DIR).
 */
import { loadConfig, loadDotEnv } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from '../migrations/index.ts';
import { openClusterSecrets } from './cluster/clusterSecrets.ts';
import { rotateKeys } from './cluster/rotateKeys.ts';

loadDotEnv();
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateToLatest(database.db);
  // The keys exist (a first start creates them, a DATA_DIR's files are taken over) and open the data.
  const current = await openClusterSecrets({
    db: database.db,
    jwtSecret: config.jwtSecret || null,
    secretsKey: config.secretsKey || null,
    dataDir: config.dataDir,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
  });
  current.close();
  const result = await rotateKeys(database.db, {
    secretsKey: config.secretsKey || null,
    newSecretsKey: process.env.NEW_SECRETS_KEY || null,
  });
  console.log(
    [
      result.signingGeneration === null
        ? 'Signing key: JWT_SECRET is set, nothing kept in the database to rotate.'
        : `Signing key: generation ${result.signingGeneration} (kid "${result.signingGeneration}"); the older ones are accepted until their tokens expire.`,
      result.sealingGeneration === null
        ? 'Sealing key: SECRETS_KEY is set; give NEW_SECRETS_KEY to rotate it.'
        : `Sealing key: generation ${result.sealingGeneration}; sealed again: ${result.resealed.eldCredentials} ELD credentials, ${result.resealed.webhookSecrets} webhook secrets.`,
      ...(process.env.NEW_SECRETS_KEY && result.sealingGeneration !== null
        ? ['Now restart every process with SECRETS_KEY set to the new key (NEW_SECRETS_KEY).']
        : []),
    ].join('\n'),
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
