/**
 * The ELD integration as the platform holds it: the provider catalogue, the organization services
 * (install, credentials, fleets), and, where background work runs, the position poller and the
 * pickup truck check.
 */
import type { Logger } from 'pino';
import type { MarketplaceCommands } from '../../commands/marketplace.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { EventStore } from '../../eventstore/eventStore.ts';
import type { HttpOptions } from './http.ts';
import { createLeadership } from '../../../storage/leadership.ts';
import { createOrganizationServices, type OrganizationServices } from '../../commands/services.ts';
import { startPickupCheck, type PickupCheck } from '../../reactors/pickupCheck.ts';
import { startEldPoller, type EldPoller } from '../../reactors/eldPoller.ts';
import { createEldProviders, type EldProviders } from './providers.ts';
import { createSecretBox, type SecretBox } from '../../cluster/secretBox.ts';

export type EldIntegration = {
  providers: EldProviders;
  services: OrganizationServices;
  /** Null where background work is off (RUN_PROJECTIONS=false). */
  poller: EldPoller | null;
  pickupCheck: PickupCheck | null;
  stop(): Promise<void>;
};

export function startEldIntegration(deps: {
  config: Pick<Config, 'secretsKey' | 'samsaraBaseUrl' | 'motiveBaseUrl' | 'eldPollMs'>;
  database: Database;
  store: EventStore;
  marketplace: MarketplaceCommands;
  logger: Logger;
  /** Run the poller and the pickup check in this process (they still wait for their locks). */
  background: boolean;
  http?: HttpOptions;
  /** The cluster's sealing keys (server/cluster/clusterSecrets.ts); else a box over `config.secretsKey`. */
  secrets?: SecretBox;
}): EldIntegration {
  const { config, database, store, marketplace, logger, background } = deps;
  const providers = createEldProviders({
    samsaraBaseUrl: config.samsaraBaseUrl,
    motiveBaseUrl: config.motiveBaseUrl,
    http: deps.http,
  });
  const services = createOrganizationServices({
    db: database.db,
    store,
    providers,
    secrets: deps.secrets ?? createSecretBox(config.secretsKey),
  });
  const leadership = createLeadership(database);
  const poller = background
    ? startEldPoller({
        db: database.db,
        marketplace,
        services,
        logger,
        leadership,
        intervalMs: config.eldPollMs,
      })
    : null;
  const pickupCheck = background
    ? startPickupCheck({ database, store, marketplace, services, logger, leadership })
    : null;
  return {
    providers,
    services,
    poller,
    pickupCheck,
    async stop() {
      await poller?.stop();
      await pickupCheck?.stop();
      await leadership.release();
    },
  };
}
