/**
 * An endpoint's deliveries as its organization sees them (the list, the last one of each endpoint),
 * and the deliveries queued on request: a replay of past events, a test event.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { WEBHOOK_REPLAY_RUNNING_MESSAGE } from '../../domain/contracts/webhooks.contract.ts';
import { ConflictError, NotFoundError } from '../../domain/shared/errors.ts';
import type { DB } from '../../storage/schema.ts';
import { TEST_EVENT_TYPE } from './audience.ts';

export type DeliveryStatus = 'delivered' | 'retrying' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['delivered', 'retrying', 'failed'];

export type WebhookEndpoint = {
  id: string;
  url: string;
  events: string[];
  description: string;
  createdAt: string;
  lastDelivery: WebhookDelivery | null;
};
export type WebhookDelivery = {
  id: string;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  at: string;
};

/** At most this many events are queued by one replay. */
export const REPLAY_LIMIT = 10_000;

export const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();
export const deliveryOf = (row: {
  id: string;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  response_status: number | null;
  last_attempt_at: Date | null;
  created_at: Date;
}): WebhookDelivery => ({
  id: String(row.id),
  eventId: row.event_id,
  type: row.type,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  responseStatus: row.response_status,
  at: iso(row.last_attempt_at ?? row.created_at)!,
});

export type DeliveriesDeps = {
  db: Kysely<DB>;
  clock: () => Date;
  /** The endpoint of the organization, else 404. */
  endpointOf(organizationId: string | null, id: string): Promise<unknown>;
  /** Tells the sender that deliveries were queued. */
  wake(): void;
};

export function createDeliveries(deps: DeliveriesDeps) {
  const { db, clock, endpointOf, wake } = deps;

  async function deliveries(
    organizationId: string | null,
    id: string,
    query: { page: number; pageSize: number; search?: string | undefined; statuses: string[] },
  ) {
    await endpointOf(organizationId, id);
    let base = db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .where('d.endpoint_id', '=', id);
    if (query.statuses.length) base = base.where('d.status', 'in', query.statuses);
    if (query.search)
      base = base.where((eb) =>
        eb.or([
          eb('e.type', 'like', `%${query.search!.replace(/[\\%_]/g, (char) => `\\${char}`)}%`),
          eb(sql`e.id::text`, '=', query.search!),
        ]),
      );
    const [{ total } = { total: 0 }] = await base
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .execute();
    const rows = await base
      .select([
        'd.id',
        'd.event_id',
        'e.type',
        'd.status',
        'd.attempts',
        'd.response_status',
        'd.last_attempt_at',
        'd.created_at',
      ])
      .orderBy('d.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute();
    return { total: Number(total), rows: rows.map(deliveryOf) };
  }

  const queue = async (
    trx: Kysely<DB>,
    endpointId: string,
    eventIds: string[],
    replayed = false,
  ) => {
    for (let start = 0; start < eventIds.length; start += 500) {
      const chunk = eventIds.slice(start, start + 500);
      await trx
        .insertInto('webhook_deliveries')
        .values(
          chunk.map((eventId) => ({
            endpoint_id: endpointId,
            event_id: eventId,
            created_at: clock(),
            next_attempt_at: clock(),
            replayed,
          })),
        )
        .execute();
    }
  };

  /**
   * Queues again the organization's events since `from` that the endpoint subscribes to, in log
   * order, with their ids; an event still waiting for this endpoint is not queued twice. One replay
   * per endpoint at a time: while a replayed delivery is still waiting, another answers 409. The
   * endpoint's row stays locked from the check to the commit, so two replays at once (on two
   * processes) cannot both pass it.
   */
  async function replay(organizationId: string | null, id: string, from: Date) {
    await endpointOf(organizationId, id);
    const queued = await db.transaction().execute(async (trx) => {
      const endpoint = await trx
        .selectFrom('webhook_endpoints')
        .select(['organization_id', 'events'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!endpoint) throw new NotFoundError('Webhook not found');
      const running = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', id)
        .where('status', '=', 'retrying')
        .where('replayed', '=', true)
        .limit(1)
        .executeTakeFirst();
      if (running) throw new ConflictError(WEBHOOK_REPLAY_RUNNING_MESSAGE);
      const rows = await trx
        .selectFrom('webhook_event_audience as a')
        .innerJoin('webhook_events as e', 'e.id', 'a.event_id')
        .select('e.id')
        .where('a.organization_id', '=', endpoint.organization_id)
        .where('a.occurred_at', '>=', from)
        .where('e.type', 'in', endpoint.events.length ? endpoint.events : ['-'])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as d')
                .select('d.id')
                .where('d.endpoint_id', '=', id)
                .whereRef('d.event_id', '=', 'e.id')
                .where('d.status', '=', 'retrying'),
            ),
          ),
        )
        .orderBy('e.seq')
        .limit(REPLAY_LIMIT)
        .execute();
      await queue(
        trx,
        id,
        rows.map((row) => row.id),
        true,
      );
      return rows.length;
    });
    wake();
    return { queued };
  }

  /** Queues a `webhook.test` event to this endpoint only. */
  async function test(organizationId: string | null, id: string) {
    await endpointOf(organizationId, id);
    const eventId = randomUUID();
    const at = clock().toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_events')
        .values({
          id: eventId,
          type: TEST_EVENT_TYPE,
          occurred_at: at,
          data: JSON.stringify({
            message: 'A test event from the freight marketplace',
            webhookId: id,
          }),
        })
        .execute();
      await queue(trx, id, [eventId]);
    });
    wake();
    return { eventId };
  }

  return { deliveries, queue, replay, test };
}
