/**
 * EDI (docs/api.md "EDI", docs/domain.md "EDI"): X12 with a shipper's trading partners, put
 * together from its parts:
 *
 * - partners.ts: the partners a shipper keeps, found by their API key;
 * - envelope.ts, tender204.ts, inbound.ts: an interchange of 204 tenders received and carried out,
 *   with a 997 per functional group (ack997.ts);
 * - outbound.ts, outboundReactor.ts: the 990, 214 and 210 the reactor `edi` writes from the log;
 * - documents.ts, sender.ts: every document kept, delivered to the partner's URL (signed like a
 *   webhook) or waiting in its mailbox.
 */
import type { Logger } from 'pino';
import { startReactor, type Reactor } from '../../storage/reactor.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import type { Database } from '../db/database.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { gazetteer } from '../integrations/places/gazetteer.ts';
import type { Resolver } from '../webhooks/addresses.ts';
import type { WebhookSettings } from '../webhooks/settings.ts';
import { createDocuments } from './documents.ts';
import { createInbound, type LoadCommandsForEdi } from './inbound.ts';
import { ediReactor } from './outboundReactor.ts';
import { createPartners } from './partners.ts';
import { createEdiSender } from './sender.ts';

export type EdiDeps = {
  database: Database;
  store: EventStore;
  secrets: SecretBox;
  logger: Logger;
  loads: LoadCommandsForEdi;
  organizationName(organizationId: string): Promise<string>;
  /** EDI_ISA_ID. */
  ourId: string;
  /** The webhooks' address rule and waits serve the partners' URLs too. */
  settings: WebhookSettings;
  /** Whether this process follows the log and sends (false where background work is off). */
  background: boolean;
  resolver?: Resolver;
  clock?: () => Date;
};

export type Edi = ReturnType<typeof createEdi>;

export function createEdi(deps: EdiDeps) {
  const { database, store, logger } = deps;
  const db = database.db;
  const clock = deps.clock ?? (() => new Date());
  const partners = createPartners({
    db,
    secrets: deps.secrets,
    allowPrivate: deps.settings.allowPrivate,
    clock,
    resolver: deps.resolver,
  });
  const sender = createEdiSender({
    database,
    partners,
    settings: deps.settings,
    logger,
    clock,
    resolver: deps.resolver,
  });
  const documents = createDocuments({ db, clock, wake: () => sender.wake() });
  const places = gazetteer();
  const inbound = createInbound({
    db,
    partners,
    loads: deps.loads,
    outgoing: documents,
    geocode: (query) => places.geocode(query),
    ourId: deps.ourId,
    clock,
  });
  if (deps.background) sender.start();
  const reactor: Reactor | null = deps.background
    ? startReactor(
        ediReactor({
          db,
          store,
          partners,
          outgoing: documents,
          ourId: deps.ourId,
          logger,
          organizationName: deps.organizationName,
          queued: () => sender.wake(),
        }),
        { database, store, logger },
      )
    : null;

  return {
    ourId: deps.ourId,
    partners,
    documents,
    inbound,
    reactor,
    /** Resolves once the reactor has handled the log up to `position` (false after the timeout). */
    async waitFor(position: LogPosition, timeoutMs = 5_000): Promise<boolean> {
      return reactor ? reactor.waitFor(position, timeoutMs) : false;
    },
    wake: () => sender.wake(),
    async stop() {
      await sender.stop();
      await reactor?.stop();
    },
  };
}
