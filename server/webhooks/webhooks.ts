/**
 * Webhooks (docs/api.md "Webhooks"): an organization's endpoints hear of the events its users could
 * see, signed with the endpoint's secret. Put together here from its parts:
 *
 * - endpoints.ts: the endpoints an organization keeps (list, create, remove) and the list of them
 *   the reactor reads;
 * - deliveries.ts: the deliveries an organization sees, and those queued on request (replay, test);
 * - reactor.ts: the reactor on the log that keeps each event and queues its deliveries;
 * - sender.ts: the attempts, retries and failure e-mails.
 *
 * With several processes on one PostgreSQL, the process that leads the reactor (its advisory lock,
 * storage/leadership.ts) also runs the sender.
 */
import type { Logger } from 'pino';
import { startReactor, type Reactor } from '../../storage/reactor.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import type { Database } from '../db/database.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { Resolver } from './addresses.ts';
import { createDeliveries, type DeliveryStatus } from './deliveries.ts';
import { createEndpointList, createEndpoints } from './endpoints.ts';
import { webhooksReactor } from './reactor.ts';
import { createSender } from './sender.ts';
import type { WebhookSettings } from './settings.ts';

export {
  DELIVERY_STATUSES,
  REPLAY_LIMIT,
  type DeliveryStatus,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './deliveries.ts';
export { ENDPOINTS_CHANNEL } from './endpoints.ts';

export type WebhookDeps = {
  database: Database;
  store: EventStore;
  mailer: Pick<Mailer, 'send'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  secrets: SecretBox;
  settings: WebhookSettings;
  /** The read models' runner: the audience is read once they have reached the event. */
  projections?: {
    waitFor(
      names: readonly string[],
      position: LogPosition | null,
      timeoutMs?: number,
    ): Promise<boolean>;
  };
  /** Whether this process follows the log and sends (false where background work is off). */
  background: boolean;
  /** Hears every attempt's outcome (the `webhook_deliveries_total{status}` counter). */
  onDelivery?: (status: DeliveryStatus) => void;
  resolver?: Resolver;
  clock?: () => Date;
};

export type Webhooks = ReturnType<typeof createWebhooks>;

export function createWebhooks(deps: WebhookDeps) {
  const { database, store, logger } = deps;
  const db = database.db;
  const clock = deps.clock ?? (() => new Date());
  const endpointList = createEndpointList(deps);
  const sender = createSender({ ...deps, db, clock });
  const endpoints = createEndpoints({ ...deps, db, clock, announce: endpointList.announce });
  const deliveries = createDeliveries({
    db,
    clock,
    endpointOf: endpoints.endpointOf,
    wake: sender.wake,
  });
  const reactor: Reactor | null = deps.background
    ? startReactor(
        webhooksReactor({
          database,
          logger,
          clock,
          endpoints: endpointList,
          projections: deps.projections,
          onLead: sender.start,
          queued: sender.wake,
        }),
        { database, store, logger },
      )
    : null;

  return {
    list: endpoints.list,
    create: endpoints.create,
    remove: endpoints.remove,
    deliveries: deliveries.deliveries,
    replay: deliveries.replay,
    test: deliveries.test,
    reactor,
    /** Resolves once the reactor has handled the log up to `position` (false after the timeout). */
    async waitFor(position: LogPosition, timeoutMs = 5_000): Promise<boolean> {
      return reactor ? reactor.waitFor(position, timeoutMs) : false;
    },
    /** Looks for due deliveries now. */
    wake: sender.wake,
    async stop() {
      // The sender first: the lock goes only once no attempt is in flight.
      await sender.stop();
      await reactor?.stop();
    },
  };
}
