// @postgres: the keys every process reads from and writes to the database
/**
 * One source of secrets: processes with separate DATA_DIRs on one database accept each other's
 * access tokens and open each other's sealed ELD credentials; JWT_SECRET / SECRETS_KEY override; a
 * SECRETS_KEY that is not the one the data was sealed with refuses to start, saying why; rotate-keys
 * keeps the tokens issued before valid and seals the credentials again; a DATA_DIR of an older
 * version (key files) keeps its sessions and its sealed data after the upgrade.
 *
 * On PostgreSQL (DATABASE_URL) each case gets a database of its own (`scale_*`); without it, on
 * PGlite in a DATA_DIR, the cases that need one database for two live processes use two apps one
 * after the other on the same DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import pino from 'pino';
import t, { type Test } from 'tap';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { organization, signIn } from '../identity/fixtures.ts';
import { startPlatform, type Platform } from '../platform.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../auth/tokens.ts';
import { createSecretBox } from './secretBox.ts';
import { rotateKeys } from './rotateKeys.ts';

const adminUrl = process.env.DATABASE_URL || null;
const silent = pino({ level: 'silent' });
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'scale-secrets-'));
  dirs.push(dir);
  return dir;
};
t.teardown(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A database of this test on the PostgreSQL server (dropped at the end), or null on PGlite. */
async function scaleDatabase(t: Test): Promise<string | null> {
  if (!adminUrl) return null;
  const name = `scale_secrets_${randomBytes(5).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  t.teardown(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

type Server = { app: App; platform: Platform; close(): Promise<void> };
async function startServer(
  env: Record<string, string | undefined>,
  options: { databaseUrl: string | null; dataDir: string },
): Promise<Server> {
  const config = loadConfig(
    {
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      CLIENT_DIR: path.join(options.dataDir, 'no-client'),
      ...env,
    },
    {
      inMemory: false,
      demo: false,
      logLevel: 'silent',
      prettyLogs: false,
    },
  );
  const platform = await startPlatform(config, silent);
  const app = await buildApp(platform);
  await app.ready();
  return {
    app,
    platform,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const me = (server: Server, token: string) =>
  server.app.inject({ method: 'GET', url: '/api/organization-services', headers: bearer(token) });
const trucks = (server: Server, token: string) =>
  server.app.inject({
    method: 'GET',
    url: '/api/services/simulator/trucks',
    headers: bearer(token),
  });
const install = (server: Server, token: string, clientSecret: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/organization-services',
    headers: bearer(token),
    payload: { serviceId: 'simulator', clientId: 'fleet-1', clientSecret },
  });

t.test(
  'two processes with their own DATA_DIR on one database share the keys',
  {
    skip: adminUrl ? false : 'needs PostgreSQL (DATABASE_URL): two live processes on one database',
  },
  async (t) => {
    const url = await scaleDatabase(t);
    const [dirA, dirB] = [dataDir(), dataDir()];
    const [a, b] = await Promise.all([
      startServer({}, { databaseUrl: url, dataDir: dirA }),
      startServer({}, { databaseUrl: url, dataDir: dirB }),
    ]);
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    t.notOk(
      existsSync(path.join(dirA, 'jwt-secret')) || existsSync(path.join(dirA, 'secrets-key')),
      'no key is written into DATA_DIR any more',
    );
    const rows = await a.platform.database.db
      .selectFrom('cluster_secrets')
      .select(['purpose', 'generation', 'origin'])
      .orderBy('purpose')
      .execute();
    t.same(
      rows,
      [
        { purpose: 'jwt', generation: 1, origin: 'generated' },
        { purpose: 'sealing', generation: 1, origin: 'generated' },
      ],
      'one key of each, whoever started first',
    );

    const carrier = await organization(a.app, a.platform, 'Carrier');
    t.equal((await me(b, carrier.token)).statusCode, 200, 'a token signed by A is accepted by B');
    const tokenFromB = await signIn(b.app, carrier.email);
    t.equal((await me(a, tokenFromB)).statusCode, 200, 'and one signed by B by A');

    t.equal(
      (await install(a, carrier.token, 'sealed-through-a')).statusCode,
      201,
      'credentials installed (sealed) through A',
    );
    const fleet = await trucks(b, carrier.token);
    t.equal(fleet.statusCode, 200, 'B opens them to ask the provider for the trucks');
    t.ok(fleet.json().length > 0);
    const stored = await b.platform.database.db
      .selectFrom('organization_services_view')
      .select('sealed_secret')
      .executeTakeFirstOrThrow();
    t.match(
      stored.sealed_secret,
      /^v2\.1\./,
      'sealed with generation 1, named in the sealed value',
    );
    t.notMatch(stored.sealed_secret, /sealed-through-a/);

    t.test(
      'rotate-keys: old tokens stay valid, new ones carry the new kid, the credentials are sealed again',
      async (t) => {
        const result = await rotateKeys(a.platform.database.db);
        t.same(result, {
          signingGeneration: 2,
          sealingGeneration: 2,
          resealed: { eldCredentials: 1, webhookSecrets: 0 },
        });
        const resealed = await a.platform.database.db
          .selectFrom('organization_services_view')
          .select('sealed_secret')
          .executeTakeFirstOrThrow();
        t.match(resealed.sealed_secret, /^v2\.2\./, 'sealed again with generation 2');
        await a.platform.clusterSecrets!.reload();
        const fresh = await signIn(a.app, carrier.email);
        t.equal(
          JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid,
          '2',
          'A signs with the new key',
        );
        t.equal(
          (await me(b, fresh)).statusCode,
          200,
          'B, which has not re-read the keys yet, reads them on the unknown kid',
        );
        t.equal(
          (await me(a, carrier.token)).statusCode,
          200,
          'a token signed before the rotation still works on A',
        );
        t.equal((await me(b, carrier.token)).statusCode, 200, 'and on B');
        await b.platform.clusterSecrets!.reload();
        t.equal(
          (await trucks(b, carrier.token)).statusCode,
          200,
          'B opens the credentials sealed with the new key',
        );
        const other = await organization(b.app, b.platform, 'Carrier');
        t.equal(
          (await install(b, other.token, 'sealed-through-b')).statusCode,
          201,
          'B seals new credentials with the new key',
        );
        t.equal((await trucks(a, other.token)).statusCode, 200, 'A opens them');
      },
    );

    t.test('JWT_SECRET overrides the database: its tokens are its own', async (t) => {
      const own = randomBytes(48).toString('base64url');
      const c = await startServer({ JWT_SECRET: own }, { databaseUrl: url, dataDir: dataDir() });
      t.teardown(() => c.close());
      const token = await signIn(c.app, carrier.email);
      t.equal((await me(c, token)).statusCode, 200);
      t.equal(
        (await me(a, token)).statusCode,
        401,
        'a process on the database keys refuses a token signed with JWT_SECRET',
      );
      t.equal((await me(c, carrier.token)).statusCode, 401, 'and the other way round');
      t.equal(
        (await trucks(c, token)).statusCode,
        200,
        'the sealing key is still the database one',
      );
    });

    t.test(
      'a SECRETS_KEY that is not the one the data is sealed with refuses to start, saying why',
      async (t) => {
        await t.rejects(
          startServer(
            { SECRETS_KEY: randomBytes(32).toString('base64') },
            { databaseUrl: url, dataDir: dataDir() },
          ),
          /SECRETS_KEY is not the key the stored ELD credentials and webhook secrets are sealed with.*Unset SECRETS_KEY to use the key the database holds/,
        );
        const held = a.platform.clusterSecrets!.sealingKey();
        const same = await startServer(
          { SECRETS_KEY: held },
          { databaseUrl: url, dataDir: dataDir() },
        );
        t.equal(
          (await trucks(same, carrier.token)).statusCode,
          200,
          'the same key given as SECRETS_KEY starts and opens the data',
        );
        await same.close();
      },
    );
  },
);

t.test(
  'SECRETS_KEY on a fresh database: only its check is stored; a process without it, or with another, refuses to start',
  async (t) => {
    const url = await scaleDatabase(t);
    const dir = dataDir();
    const key = randomBytes(32).toString('hex');
    const first = await startServer({ SECRETS_KEY: key }, { databaseUrl: url, dataDir: dir });
    const carrier = await organization(first.app, first.platform, 'Carrier');
    t.equal((await install(first, carrier.token, 'env-sealed')).statusCode, 201);
    const row = await first.platform.database.db
      .selectFrom('cluster_secrets')
      .selectAll()
      .where('purpose', '=', 'sealing')
      .executeTakeFirstOrThrow();
    t.equal(row.secret, null, 'the key itself is not stored');
    t.equal(row.origin, 'environment');
    await first.close();
    await t.rejects(
      startServer({}, { databaseUrl: url, dataDir: dir }),
      /sealed with a SECRETS_KEY from the environment.*start this process with that SECRETS_KEY/,
    );
    await t.rejects(
      startServer(
        { SECRETS_KEY: randomBytes(32).toString('hex') },
        { databaseUrl: url, dataDir: dir },
      ),
      /SECRETS_KEY is not the key/,
    );
    const again = await startServer({ SECRETS_KEY: key }, { databaseUrl: url, dataDir: dir });
    t.equal(
      (await trucks(again, await signIn(again.app, carrier.email))).statusCode,
      200,
      'the same SECRETS_KEY opens the credentials after a restart',
    );
    await again.close();
  },
);

t.test(
  'a DATA_DIR of an older version (key files) keeps its sessions and its sealed data after the upgrade',
  async (t) => {
    const url = await scaleDatabase(t);
    const dir = dataDir();
    const fileSecret = randomBytes(48).toString('base64url');
    const fileKey = randomBytes(32).toString('base64');
    writeFileSync(path.join(dir, 'jwt-secret'), fileSecret);
    writeFileSync(path.join(dir, 'secrets-key'), fileKey);
    const server = await startServer({}, { databaseUrl: url, dataDir: dir });
    t.teardown(() => server.close());
    const rows = await server.platform.database.db
      .selectFrom('cluster_secrets')
      .select(['purpose', 'secret', 'origin'])
      .orderBy('purpose')
      .execute();
    t.same(
      rows,
      [
        { purpose: 'jwt', secret: fileSecret, origin: 'data-dir' },
        { purpose: 'sealing', secret: fileKey, origin: 'data-dir' },
      ],
      "the files' keys are taken over",
    );

    // A session begun before the upgrade: its access token has no kid and was signed with the file's secret.
    const carrier = await organization(server.app, server.platform, 'Carrier');
    const claims = JSON.parse(
      Buffer.from(carrier.token.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    const before = createSigner({ key: fileSecret, algorithm: 'HS256' })({ ...claims });
    t.notOk(
      JSON.parse(Buffer.from(before.split('.')[0]!, 'base64url').toString()).kid,
      'the old token has no kid',
    );
    t.equal((await me(server, before)).statusCode, 200, 'the old token is still accepted');
    t.equal(claims.iss, TOKEN_ISSUER);
    t.equal(claims.aud, TOKEN_AUDIENCE);
    // What the older version sealed (v1, no generation) opens with the taken-over key.
    const sealedBefore = createSecretBox(fileKey).seal('older credentials', 'service-1');
    t.equal(
      server.platform.clusterSecrets!.box.open(sealedBefore, 'service-1'),
      'older credentials',
    );
  },
);
