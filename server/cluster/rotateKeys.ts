/**
 * `npm run rotate-keys`: a new signing key for access tokens and a new sealing key, in one
 * transaction (server/cluster/clusterSecrets.ts).
 *
 * - Signing: generation n+1 is added; running processes sign with it once they read the table again
 *   (within seconds, or at once when a token names it), and accept the older keys until the tokens
 *   signed with them have expired (the access token's lifetime and a minute after the rotation).
 *   Refresh tokens are not JWTs: sessions go on.
 * - Sealing: the ELD credentials (organization_services_view) and the webhook secrets
 *   (webhook_endpoints) are opened with the keys they were sealed with and sealed again with the new
 *   one, in the same transaction. The older keys stay in the table: the event log keeps what was
 *   sealed when the credentials were entered, and a rebuilt read model still opens it.
 * - With SECRETS_KEY in the environment the database holds no sealing key to replace: give the next
 *   one as NEW_SECRETS_KEY (and SECRETS_KEY, the current one), then restart every process with
 *   SECRETS_KEY set to the new key. Without NEW_SECRETS_KEY only the signing key is rotated then.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { parseSecretsKey } from './secretBox.ts';
import { ClusterSecretsError, createGenerationalSecretBox, keyCheckOf } from './clusterSecrets.ts';

export type RotationResult = {
  /** The new signing key's generation (its `kid`); null when JWT_SECRET is used and none is kept. */
  signingGeneration: number | null;
  /** The new sealing key's generation; null when it was not rotated (SECRETS_KEY without NEW_SECRETS_KEY). */
  sealingGeneration: number | null;
  resealed: { eldCredentials: number; webhookSecrets: number };
};

export async function rotateKeys(
  db: Kysely<DB>,
  options: { secretsKey?: string | null; newSecretsKey?: string | null } = {},
): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    // One rotation at a time; processes reading the keys wait for it.
    await sql`LOCK TABLE cluster_secrets IN EXCLUSIVE MODE`.execute(trx);
    const rows = await trx
      .selectFrom('cluster_secrets')
      .selectAll()
      .orderBy('generation')
      .execute();
    const jwt = rows.filter((row) => row.purpose === 'jwt');
    const sealing = rows.filter((row) => row.purpose === 'sealing');
    const newestSealing = sealing.at(-1);
    if (!newestSealing)
      throw new ClusterSecretsError(
        'No keys to rotate yet: start the server once first, so that it creates them.',
      );

    let signingGeneration: number | null = null;
    if (jwt.length > 0) {
      signingGeneration = jwt.at(-1)!.generation + 1;
      const secret = randomBytes(48).toString('base64url');
      await trx
        .insertInto('cluster_secrets')
        .values({
          purpose: 'jwt',
          generation: signingGeneration,
          secret,
          key_check: keyCheckOf(secret),
          origin: 'rotated',
        })
        .execute();
    }

    // The keys that open what is stored now.
    const byGeneration = new Map<number, string>();
    for (const row of sealing) if (row.secret) byGeneration.set(row.generation, row.secret);
    const current = options.secretsKey ? parseSecretsKey(options.secretsKey) : null;
    if (!newestSealing.secret) {
      if (!current || keyCheckOf(current) !== newestSealing.key_check) {
        throw new ClusterSecretsError(
          'The sealing key comes from SECRETS_KEY: run this with the SECRETS_KEY the processes use (and NEW_SECRETS_KEY to rotate it).',
        );
      }
      byGeneration.set(newestSealing.generation, current.toString('base64'));
    }
    if (!newestSealing.secret && !options.newSecretsKey) {
      return {
        signingGeneration,
        sealingGeneration: null,
        resealed: { eldCredentials: 0, webhookSecrets: 0 },
      };
    }

    const sealingGeneration = newestSealing.generation + 1;
    const fromEnvironment = options.newSecretsKey ? parseSecretsKey(options.newSecretsKey) : null;
    const next = fromEnvironment ?? randomBytes(32);
    await trx
      .insertInto('cluster_secrets')
      .values({
        purpose: 'sealing',
        generation: sealingGeneration,
        secret: fromEnvironment ? null : next.toString('base64'),
        key_check: keyCheckOf(next),
        origin: fromEnvironment ? 'environment' : 'rotated',
      })
      .execute();
    byGeneration.set(sealingGeneration, next.toString('base64'));
    const box = createGenerationalSecretBox(() => ({
      current: { generation: sealingGeneration, key: next.toString('base64') },
      byGeneration,
    }));

    let eldCredentials = 0;
    for (const row of await trx
      .selectFrom('organization_services_view')
      .select(['id', 'sealed_secret'])
      .execute()) {
      await trx
        .updateTable('organization_services_view')
        .set({ sealed_secret: box.seal(box.open(row.sealed_secret, row.id), row.id) })
        .where('id', '=', row.id)
        .execute();
      eldCredentials += 1;
    }
    let webhookSecrets = 0;
    for (const row of await trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'secret_sealed'])
      .execute()) {
      const context = `webhook:${row.id}`;
      await trx
        .updateTable('webhook_endpoints')
        .set({ secret_sealed: box.seal(box.open(row.secret_sealed, context), context) })
        .where('id', '=', row.id)
        .execute();
      webhookSecrets += 1;
    }
    return { signingGeneration, sealingGeneration, resealed: { eldCredentials, webhookSecrets } };
  });
}
