/**
 * The webhooks reactor follows the log (storage/reactor.ts, checkpoint `webhooks`). For each event
 * the sockets are told of, it decides which organizations with endpoints may hear of it
 * (audience.ts) and, in one transaction with the checkpoint, keeps the event, its audience and one
 * delivery per subscribed endpoint. A restart re-reads at most what was not committed.
 */
import type { Logger } from 'pino';
import type { ReactorDefinition } from '../../storage/reactor.ts';
import type { Database } from '../db/database.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { livePushes, workOf } from '../realtime/notifier.ts';
import {
  AUDIENCE_READ_MODELS,
  newAudienceCache,
  webhookEventOf,
  type WebhookEvent,
} from './audience.ts';
import { ENDPOINTS_CHANNEL, type EndpointRow } from './endpoints.ts';

export const WEBHOOKS_REACTOR = 'webhooks';

export function webhooksReactor(deps: {
  database: Database;
  logger: Pick<Logger, 'warn'>;
  clock: () => Date;
  endpoints: { subscribed(): Promise<EndpointRow[]>; changed(): void };
  /** The read models' runner: the audience is read once they have reached the event. */
  projections?: {
    waitFor(
      names: readonly string[],
      position: LogPosition | null,
      timeoutMs?: number,
    ): Promise<boolean>;
  };
  /** This process leads: the sender starts. */
  onLead(): void;
  /** Deliveries were queued. */
  queued(): void;
}): ReactorDefinition {
  const { database, logger, clock, endpoints } = deps;
  const db = database.db;
  const cache = newAudienceCache();
  let stopListening: (() => Promise<void>) | null = null;

  const handle: ReactorDefinition['handle'] = async (events, page) => {
    const subscribed = await endpoints.subscribed();
    const candidates = new Set(subscribed.map((row) => row.organization_id));
    // With no endpoint anywhere, the events are not even looked at.
    if (candidates.size === 0) return 'idle';
    const relevant = events.filter(
      (event) => livePushes(event).length > 0 || Boolean(workOf([event])),
    );
    if (relevant.length === 0) return 'idle';
    const found: WebhookEvent[] = [];
    if (relevant.some((event) => livePushes(event).length === 0))
      await deps.projections?.waitFor(AUDIENCE_READ_MODELS, page.last, 5_000);
    for (const event of relevant) {
      try {
        const webhookEvent = await webhookEventOf(db, event, candidates, cache);
        if (webhookEvent && webhookEvent.organizations.length > 0) found.push(webhookEvent);
      } catch (error) {
        logger.warn({ err: error, eventId: event.id, type: event.type }, 'webhooks: event skipped');
      }
    }
    // Pages with nothing to send move the checkpoint at most once a second.
    if (found.length === 0) return 'idle';
    await page.commit(async (trx) => {
      const fresh = await trx
        .insertInto('webhook_events')
        .values(
          found.map((event) => ({
            id: event.id,
            type: event.type,
            occurred_at: event.occurredAt,
            data: JSON.stringify(event.data),
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      const isFresh = new Set(fresh.map((row) => row.id));
      const audience = found.flatMap((event) =>
        event.organizations.map((organizationId) => ({
          organization_id: organizationId,
          event_id: event.id,
          occurred_at: event.occurredAt,
        })),
      );
      for (let start = 0; start < audience.length; start += 1000) {
        await trx
          .insertInto('webhook_event_audience')
          .values(audience.slice(start, start + 1000))
          .onConflict((oc) => oc.columns(['organization_id', 'event_id']).doNothing())
          .execute();
      }
      const deliveriesToQueue: {
        endpoint_id: string;
        event_id: string;
        created_at: Date;
        next_attempt_at: Date;
      }[] = [];
      for (const event of found) {
        if (!isFresh.has(event.id)) continue;
        for (const endpoint of subscribed) {
          if (
            event.organizations.includes(endpoint.organization_id) &&
            endpoint.events.includes(event.type)
          ) {
            deliveriesToQueue.push({
              endpoint_id: endpoint.id,
              event_id: event.id,
              created_at: clock(),
              next_attempt_at: clock(),
            });
          }
        }
      }
      for (let start = 0; start < deliveriesToQueue.length; start += 1000) {
        await trx
          .insertInto('webhook_deliveries')
          .values(deliveriesToQueue.slice(start, start + 1000))
          .execute();
      }
    });
    deps.queued();
  };

  return {
    name: WEBHOOKS_REACTOR,
    // Every event: which ones matter is decided in `handle`, once there are endpoints at all.
    handles: () => true,
    handle,
    pageSize: 500,
    async onLead() {
      // PGlite serves one process, whose own changes are heard without a notice.
      if (database.kind === 'postgres')
        stopListening = await database.listen(ENDPOINTS_CHANNEL, endpoints.changed);
      endpoints.changed();
      deps.onLead();
    },
    async onLeadFailed() {
      await stopListening?.().catch(() => undefined);
      stopListening = null;
    },
    async onStop() {
      await stopListening?.();
      stopListening = null;
    },
  };
}
