/**
 * The platform's background work, started once the event log and the read models exist: the read
 * models' runner, the load expiry, the carriers' authority check, the held contact changes, the ELD integration, the lane
 * alerts, the webhooks and EDI — and `releaseBackground`, which stops them all and gives their locks back.
 * Where background work is off (RUN_PROJECTIONS=false) only the parts that answer requests are made.
 */
import type { Logger } from 'pino';
import type { ProjectionRunner } from '../projections/runner.ts';
import type { SecretBox } from './cluster/secretBox.ts';
import type { IdentityCommands } from './commands/identity.ts';
import { listLoadOffersOnce } from './commands/listLoadOffers.ts';
import type { MarketplaceCommands } from './commands/marketplace.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { EventStore } from './eventstore/eventStore.ts';
import type { Metrics } from './http/metrics.ts';
import { startEldIntegration, type EldIntegration } from './integrations/eld/eld.ts';
import { createAuthorityChecker, type AuthorityChecker } from './integrations/fmcsa/authority.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import {
  startAuthorityCheckScheduler,
  type AuthorityCheckScheduler,
} from './reactors/authorityCheck.ts';
import {
  startContactChangeScheduler,
  type ContactChangeScheduler,
} from './reactors/contactChangeApply.ts';
import { createClaimCommands, type ClaimCommands } from './commands/claims.ts';
import {
  startAccessorialClaims,
  type AccessorialClaimsScheduler,
} from './reactors/accessorialClaims.ts';
import { createInvoiceCommands, type InvoiceCommands } from './commands/invoices.ts';
import { startInvoiceScheduler, type InvoiceScheduler } from './reactors/invoiceDrafts.ts';
import { startLaneAlerts, type LaneAlerts } from './reactors/laneAlerts.ts';
import { startLoadExpiryScheduler, type LoadExpiryScheduler } from './reactors/loadExpiry.ts';
import type { Realtime } from './realtime/realtime.ts';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.ts';
import { createEdi, type Edi } from './edi/edi.ts';

export type PlatformBackground = {
  loadExpiry: LoadExpiryScheduler | null;
  authority: AuthorityChecker;
  authorityCheck: AuthorityCheckScheduler | null;
  contactChanges: ContactChangeScheduler | null;
  eld: EldIntegration;
  laneAlerts: LaneAlerts | null;
  webhooks: Webhooks;
  /** EDI with the shippers' trading partners; where background work runs, its reactor and sender too. */
  edi: Edi;
  claims: ClaimCommands;
  accessorialClaims: AccessorialClaimsScheduler;
  invoices: InvoiceCommands;
  invoiceScheduler: InvoiceScheduler;
  /** Stops the background work and gives its locks back; once, later calls get the same promise. */
  releaseBackground(): Promise<void>;
};

export async function startPlatformBackground({
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
  realtime,
}: {
  config: Config;
  database: Database;
  store: EventStore;
  runner: ProjectionRunner;
  identity: IdentityCommands;
  marketplace: MarketplaceCommands;
  mailer: Mailer;
  secrets: SecretBox;
  metrics: Metrics;
  logger: Logger;
  /** Read at each alert: the socket server is attached once the HTTP server exists. */
  realtime: () => Realtime;
}): Promise<PlatformBackground> {
  if (config.runProjections) await runner.start();
  if (config.runProjections) {
    // A log written before loads listed their offers gets them listed once, so accepting declines them.
    const listing = await listLoadOffersOnce(store, new Date().toISOString());
    if (listing) logger.info({ listed: listing.listed }, 'older offers listed on their loads');
  }
  const loadExpiry = config.runProjections
    ? startLoadExpiryScheduler({ database, marketplace, logger })
    : null;
  const authority = createAuthorityChecker({
    db: database.db,
    logger,
    webKey: config.fmcsaWebKey,
    baseUrl: config.fmcsaBaseUrl,
  });
  const authorityCheck = config.runProjections
    ? startAuthorityCheckScheduler({ database, identity, authority, mailer, logger })
    : null;
  const contactChanges = config.runProjections
    ? startContactChangeScheduler({ database, identity, logger })
    : null;
  const eld = startEldIntegration({
    config,
    database,
    store,
    marketplace,
    logger,
    background: config.runProjections,
    secrets,
  });
  // Reads the socket server at each alert (see `realtime` above).
  const laneAlerts = config.runProjections
    ? await startLaneAlerts({
        database,
        store,
        mailer,
        logger,
        projections: runner,
        realtime,
      })
    : null;
  const webhooks = createWebhooks({
    database,
    store,
    mailer,
    logger,
    secrets,
    settings: config.webhooks,
    projections: runner,
    background: config.runProjections,
    onDelivery: (status) => metrics.webhookDelivered(status),
  });
  const edi = createEdi({
    database,
    store,
    secrets,
    logger,
    loads: marketplace,
    organizationName: async (organizationId) =>
      (await identity.loadOrganization(organizationId))?.name ?? '',
    ourId: config.ediIsaId,
    settings: config.webhooks,
    background: config.runProjections,
  });
  const claims = createClaimCommands({
    store,
    db: database.db,
    loadTour: marketplace.loadTour,
    loadLoad: marketplace.loadLoad,
  });
  const accessorialClaims = startAccessorialClaims({
    database,
    store,
    claims,
    logger,
    background: config.runProjections,
  });
  const invoices = createInvoiceCommands({
    store,
    db: database.db,
    identity,
    loadTour: marketplace.loadTour,
  });
  const invoiceScheduler = startInvoiceScheduler({
    database,
    store,
    invoices,
    logger,
    background: config.runProjections,
  });
  let released: Promise<void> | null = null;
  const releaseBackground = () =>
    (released ??= (async () => {
      await laneAlerts?.stop();
      await webhooks.stop();
      await edi.stop();
      await eld.stop();
      await loadExpiry?.stop();
      await authorityCheck?.stop();
      await contactChanges?.stop();
      await accessorialClaims.stop();
      await invoiceScheduler.stop();
      await runner.stop();
    })());
  return {
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
  };
}
