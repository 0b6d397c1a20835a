/**
 * The platform a running server shares: opens the database and the event log, wires the commands,
 * tokens, mail and the socket server, and starts the background work (platformBackground.ts).
 */
import type { Logger } from 'pino';
import { migrateToLatest } from '../migrations/index.ts';
import { allProjections } from '../projections/index.ts';
import type { Projection } from '../projections/projection.ts';
import { ProjectionRunner } from '../projections/runner.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import type { EventStore } from './eventstore/eventStore.ts';
import { createPostgresEventStore } from './eventstore/postgres/postgresEventStore.ts';
import { createLoginLimiter, type LoginLimiter } from './auth/loginLimiter.ts';
import { createRealtime, type Realtime } from './realtime/realtime.ts';
import { createTokenService, type TokenService } from './auth/tokens.ts';
import {
  createOrganizationStatusCache,
  isBlockedStatus,
  type OrganizationStatusCache,
} from './auth/organizationStatus.ts';
import { createIdentityCommands, type IdentityCommands } from './commands/identity.ts';
import { createMailer, type Mailer } from './integrations/mail/mailer.ts';
import { createMarketplaceCommands, type MarketplaceCommands } from './commands/marketplace.ts';
import type { LoadExpiryScheduler } from './reactors/loadExpiry.ts';
import type { EldIntegration } from './integrations/eld/eld.ts';
import type { LaneAlerts } from './reactors/laneAlerts.ts';
import { createSecretBox, type SecretBox } from './cluster/secretBox.ts';
import { mustEnrol } from './commands/twoFactor.ts';
import type { Webhooks } from './webhooks/webhooks.ts';
import type { Edi } from './edi/edi.ts';
import { countingAppends, createMetrics, readProjections, type Metrics } from './http/metrics.ts';
import { openClusterSecrets, type ClusterSecrets } from './cluster/clusterSecrets.ts';
import { createLifecycle, type Lifecycle } from './cluster/lifecycle.ts';
import type { AuthorityChecker } from './integrations/fmcsa/authority.ts';
import type { AuthorityCheckScheduler } from './reactors/authorityCheck.ts';
import type { ContactChangeScheduler } from './reactors/contactChangeApply.ts';
import type { ClaimCommands } from './commands/claims.ts';
import type { AccessorialClaimsScheduler } from './reactors/accessorialClaims.ts';
import type { InvoiceCommands } from './commands/invoices.ts';
import type { InvoiceScheduler } from './reactors/invoiceDrafts.ts';
import { startPlatformBackground } from './platformBackground.ts';

/** Everything a running server shares: configuration, SQL, the event log and the read models. */
export type Platform = {
  config: Config;
  database: Database;
  store: EventStore;
  runner: ProjectionRunner;
  logger: Logger;
  identity: IdentityCommands;
  marketplace: MarketplaceCommands;
  /** Pauses loads whose offer expired; null where background work is off (RUN_PROJECTIONS=false). */
  loadExpiry: LoadExpiryScheduler | null;
  /** Carriers' operating authority: QCMobile with FMCSA_WEBKEY, else the imported FMCSA file. */
  authority: AuthorityChecker;
  /** The daily check of Active carriers' authority; null where background work is off. */
  authorityCheck: AuthorityCheckScheduler | null;
  /** Applies the organizations' held contact changes once due; null where background work is off. */
  contactChanges: ContactChangeScheduler | null;
  /** ELD providers, organization services; the position poller and the pickup truck check where background work runs. */
  eld: EldIntegration;
  /** Alerts carriers of new loads on their saved searches; null where background work is off. */
  laneAlerts: LaneAlerts | null;
  /** The accessorial claims of tours: the parties' commands on them. */
  claims: ClaimCommands;
  /** Claims from departures and cancellations, and their approval by silence; its reactor and loop only where background work runs. */
  accessorialClaims: AccessorialClaimsScheduler;
  /** Carriers' invoices: the parties' commands on them and the draft at a confirmed delivery. */
  invoices: InvoiceCommands;
  /** Drafts at confirmed deliveries and approval by silence; its reactor and loop only where background work runs. */
  invoiceScheduler: InvoiceScheduler;
  tokens: TokenService;
  /** The status of an organization, for the guard and the socket handshake (Pending waits, Blocked is refused). */
  organizationStatus: OrganizationStatusCache;
  mailer: Mailer;
  /** Seals the secrets kept at rest (ELD credentials, webhook secrets, release-code secrets, two-factor secrets) with the server's key. */
  secrets: SecretBox;
  loginLimiter: LoginLimiter;
  /** socket.io: rooms, the notifier and `emit`; a no-op until app.ts attaches it to the HTTP server. */
  realtime: Realtime;
  /** Organizations' webhook endpoints; where background work runs, the reactor and the sender too. */
  webhooks: Webhooks;
  /** EDI with the shippers' trading partners: partners, documents, tenders in; where background work runs, the reactor and the sender. */
  edi: Edi;
  /** The figures of `GET /metrics`; `metrics.webhookDelivered(status)` counts webhook deliveries. */
  metrics: Metrics;
  /** The event store's last error (logged when it happened), for /api/health. */
  eventStoreError(): { message: string; at: string } | null;
  /** The cluster's keys from the database; null for a database in memory (random keys of this process). */
  clusterSecrets: ClusterSecrets | null;
  /** Serving or draining (SIGTERM): what `GET /api/health/ready` answers first. */
  lifecycle: Lifecycle;
  /**
   * Stops the background work and gives its locks back at once (projections, reactors, pollers),
   * so another process takes them over; requests are still answered. Once; `close` calls it too.
   */
  releaseBackground(): Promise<void>;
  close(): Promise<void>;
};

/**
 * `options.pgliteFrom`: for a PGlite in memory (tests), the data folder to start from (openDatabase),
 * so the migrations below find nothing left to do.
 */
export async function startPlatform(
  givenConfig: Config,
  logger: Logger,
  options: { projections?: Projection[]; pgliteFrom?: Blob } = {},
): Promise<Platform> {
  const database = await openDatabase({
    databaseUrl: givenConfig.databaseUrl,
    dataDir: givenConfig.inMemory ? null : givenConfig.dataDir,
    pgliteFrom: options.pgliteFrom,
  });
  const applied = await migrateToLatest(database.db);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
  // One source of keys for every process on this database (JWT_SECRET / SECRETS_KEY override it);
  // a key that cannot open the stored data stops the start here, with why.
  const clusterSecrets = givenConfig.inMemory
    ? null
    : await openClusterSecrets({
        db: database.db,
        jwtSecret: givenConfig.jwtSecret || null,
        secretsKey: givenConfig.secretsKey || null,
        dataDir: givenConfig.dataDir,
        accessTokenTtlSeconds: givenConfig.accessTokenTtlSeconds,
        logger,
      }).catch(async (error: unknown) => {
        await database.close().catch(() => undefined);
        throw error;
      });
  const config: Config = clusterSecrets
    ? {
        ...givenConfig,
        jwtSecret: clusterSecrets.jwt.signing().secret,
        secretsKey: clusterSecrets.sealingKey(),
      }
    : givenConfig;
  const secrets = clusterSecrets?.box ?? createSecretBox(config.secretsKey);
  // Logged, and the last one kept for /api/health: subscriptions resubscribe, so nothing else shows it.
  let eventStoreError: { message: string; at: string } | null = null;
  const onError = (err: unknown) => {
    eventStoreError = {
      message: err instanceof Error ? err.message : String(err),
      at: new Date().toISOString(),
    };
    logger.warn({ err }, 'event store subscription error');
  };
  const metrics = createMetrics();
  const store = countingAppends(
    config.eventstoreUrl
      ? await (await import('./eventstore/esdb/esdbEventStore.ts')).createEsdbEventStore(
          config.eventstoreUrl,
          { onError },
        )
      : await createPostgresEventStore(database, { onError }),
    metrics,
  );
  const identity = createIdentityCommands(store);
  const marketplace = createMarketplaceCommands({ store, db: database.db, identity, secrets });
  const organizationStatus = createOrganizationStatusCache({
    load: async (organizationId) =>
      (await identity.loadOrganization(organizationId))?.status ?? null,
  });
  const tokens = createTokenService({
    db: database.db,
    secret: config.jwtSecret,
    ...(clusterSecrets ? { keys: clusterSecrets.jwt } : {}),
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    // Blocked and deleted users, and sessions begun before a password reset, refresh no more.
    isUserAllowed: async (userId) => {
      const user = await identity.loadUser(userId);
      // A member of a blocked organization refreshes no more either.
      const organizationBlocked = user?.organizationId
        ? isBlockedStatus(await organizationStatus.statusOf(user.organizationId))
        : false;
      return user
        ? {
            allowed: user.status !== 3 && !organizationBlocked,
            sessionsRevokedAt: user.sessionsRevokedAt,
            organizationId: user.organizationId,
            roleId: user.roleId,
            mustEnrol: mustEnrol(
              config,
              user,
              user.organizationId ? await identity.loadOrganization(user.organizationId) : null,
            ),
          }
        : { allowed: false };
    },
  });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    db: database.db,
    logger,
    from: config.mailFrom,
  });
  const loginLimiter = createLoginLimiter();
  const runner = new ProjectionRunner(database, store, options.projections ?? allProjections, {
    logger,
    // A process that holds no lock asks again this often: the read models move within about a second when their holder stops.
    lockRetryMs: Number(process.env.PROJECTION_LOCK_RETRY_MS) || 1000,
  });
  // An activation or a block committed here takes effect at the next request, not after the cache's few seconds.
  runner.onCommitted((projection, events) => {
    if (projection !== 'organizations') return;
    for (const event of events) {
      if (event.type === 'OrganizationActivated' || event.type === 'OrganizationBlocked')
        organizationStatus.forget(
          String((event.data as { organizationId: string }).organizationId),
        );
    }
  });
  const realtime = createRealtime({
    config,
    db: database.db,
    store,
    runner,
    tokens,
    marketplace,
    identity,
    organizationStatus: organizationStatus.statusOf,
    logger,
  });
  metrics.readFrom({
    projections: () => readProjections(store, runner, database.background),
    socketConnections: () => realtime.connections,
    onError: (err) => logger.warn({ err }, 'metrics: read models not read'),
  });
  const {
    loadExpiry,
    authority,
    authorityCheck,
    contactChanges,
    eld,
    laneAlerts,
    webhooks,
    edi,
    claims,
    accessorialClaims,
    invoices,
    invoiceScheduler,
    releaseBackground,
  } = await startPlatformBackground({
    config,
    database,
    store,
    runner,
    identity,
    marketplace,
    mailer,
    secrets,
    metrics,
    logger,
    realtime: () => platform.realtime,
  });
  logger.info(
    {
      database: database.kind,
      eventStore: store.kind,
      dataDir:
        database.kind === 'pglite' ? (config.inMemory ? 'memory' : config.dataDir) : undefined,
    },
    'platform ready',
  );
  const platform: Platform = {
    config,
    database,
    store,
    runner,
    logger,
    identity,
    marketplace,
    secrets,
    loadExpiry,
    authority,
    authorityCheck,
    contactChanges,
    eld,
    laneAlerts,
    claims,
    accessorialClaims,
    invoices,
    invoiceScheduler,
    tokens,
    organizationStatus,
    mailer,
    loginLimiter,
    realtime,
    metrics,
    webhooks,
    edi,
    eventStoreError: () => eventStoreError,
    clusterSecrets,
    lifecycle: createLifecycle(),
    releaseBackground,
    async close() {
      await realtime.close();
      await releaseBackground();
      clusterSecrets?.close();
      await store.close();
      await database.close();
    },
  };
  return platform;
}
