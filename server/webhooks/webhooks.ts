/**
 * Webhooks (docs/api.md "Webhooks"): an organization's endpoints hear of the events its users could
 * see, signed with the endpoint's secret.
 *
 * - The reactor follows the log with its own checkpoint (`webhook_checkpoints`). For each event the
 *   sockets are told of, it decides which organizations with endpoints may hear of it (audience.ts)
 *   and, in one transaction with the checkpoint, keeps the event, its audience and one delivery per
 *   subscribed endpoint. A restart re-reads at most what was not committed.
 * - The sender works through each endpoint's deliveries in id order (the log's order): the next waits
 *   until the one before is delivered or has failed. An attempt that gets no 2xx within the timeout
 *   is retried with exponential backoff and jitter; after `giveUpAfterMs` the delivery is `failed`.
 *   Endpoints are served side by side, at most `concurrency` attempts at a time, so a slow or dead
 *   one holds up only itself. A delivery is marked delivered after the 2xx: at least once.
 * - After `notifyAfterAttempts` failed attempts in a row, the organization's managers get an e-mail,
 *   once until the endpoint delivers again.
 *
 * With several processes on one PostgreSQL, the holder of an advisory lock runs both.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { GenericStatus } from '../../domain/catalog.ts';
import { hasAny, permissionsFor, USER_CREATE } from '../../domain/permissions.ts';
import {
  MAX_WEBHOOKS,
  WEBHOOK_LIMIT_MESSAGE,
  WEBHOOK_REPLAY_RUNNING_MESSAGE,
} from '../../domain/contracts/webhooks.contract.ts';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import { usersOfOrganizations } from '../../projections/users/users.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { Database } from '../db/database.ts';
import type {
  EventStore,
  LogPosition,
  RecordedEvent,
  Subscription,
} from '../eventstore/eventStore.ts';
import { comparePositions } from '../eventstore/eventStore.ts';
import { createLeadership, type Leadership } from '../integrations/eld/leadership.ts';
import type { SecretBox } from '../integrations/eld/secrets.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import { livePushes, workOf } from '../realtime/notifier.ts';
import { resolveWebhookTarget, WebhookAddressError, type Resolver } from './addresses.ts';
import {
  AUDIENCE_READ_MODELS,
  newAudienceCache,
  TEST_EVENT_TYPE,
  webhookEventOf,
  type WebhookEvent,
} from './audience.ts';
import { postWebhook } from './send.ts';
import type { WebhookSettings } from './settings.ts';
import { newWebhookSecret, webhookHeaders } from './signature.ts';

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
const CHECKPOINT = 'webhooks';
const JOB = 'reactor:webhooks';
/** Told of every change to the endpoints, for the reactor of another process on the same PostgreSQL. */
export const ENDPOINTS_CHANNEL = 'webhook_endpoints_changed';

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

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();
const deliveryOf = (row: {
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

export function createWebhooks(deps: WebhookDeps) {
  const { database, store, mailer, logger, secrets, settings } = deps;
  const db: Kysely<DB> = database.db;
  const clock = deps.clock ?? (() => new Date());
  const leadership: Leadership = createLeadership(database);
  const cache = newAudienceCache();
  let subscription: Subscription | null = null;
  let handled: LogPosition | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let poll: NodeJS.Timeout | null = null;
  let leader = false;
  const inFlight = new Map<string, Promise<void>>();

  // ---- endpoints -------------------------------------------------------------------------------

  /**
   * Who may hear of events, as the reactor last read it: read again after a change (this process's
   * own create or remove, another process's through ENDPOINTS_CHANNEL, a reconnection of the
   * listener) or after `endpointsFreshMs` in any case, instead of once for every page of the log.
   */
  type EndpointRow = { id: string; organization_id: string; events: string[] };
  let endpointsRead: { rows: Promise<EndpointRow[]>; at: number } | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  const endpointsChanged = () => {
    endpointsRead = null;
  };
  const subscribedEndpoints = (): Promise<EndpointRow[]> => {
    if (!endpointsRead || Date.now() - endpointsRead.at > settings.endpointsFreshMs) {
      const entry = {
        rows: db
          .selectFrom('webhook_endpoints')
          .select(['id', 'organization_id', 'events'])
          .execute(),
        at: Date.now(),
      };
      endpointsRead = entry;
      entry.rows.catch(() => {
        if (endpointsRead === entry) endpointsRead = null;
      });
    }
    return endpointsRead.rows;
  };
  /** After a committed change: this process reads the endpoints again, and so does another one's reactor. */
  const announceEndpointsChanged = async () => {
    endpointsChanged();
    if (database.kind !== 'postgres') return;
    // The change is committed: a notice that does not go out leaves the other reactor's list stale
    // for `endpointsFreshMs` at most, and is no error of the request.
    await sql`SELECT pg_notify(${ENDPOINTS_CHANNEL}, '')`
      .execute(db)
      .catch((error: unknown) => logger.warn({ err: error }, 'webhooks: change notice not sent'));
  };

  const endpointOf = async (organizationId: string | null, id: string) => {
    const row = organizationId
      ? await db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .executeTakeFirst()
      : undefined;
    if (!row) throw new NotFoundError('Webhook not found');
    return row;
  };

  async function list(organizationId: string | null): Promise<WebhookEndpoint[]> {
    if (!organizationId) return [];
    const rows = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const last =
      rows.length === 0
        ? { rows: [] }
        : await sql<{
            endpoint_id: string;
            id: string;
            event_id: string;
            type: string;
            status: string;
            attempts: number;
            response_status: number | null;
            last_attempt_at: Date | null;
            created_at: Date;
          }>`
      SELECT DISTINCT ON (d.endpoint_id) d.endpoint_id, d.id, d.event_id, e.type, d.status, d.attempts, d.response_status, d.last_attempt_at, d.created_at
      FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
      WHERE d.endpoint_id IN (${sql.join(rows.map((row) => row.id))}) AND d.attempts > 0
      ORDER BY d.endpoint_id, d.last_attempt_at DESC, d.id DESC`.execute(db);
    const lastOf = new Map(last.rows.map((row) => [row.endpoint_id, deliveryOf(row)]));
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      events: row.events,
      description: row.description,
      createdAt: iso(row.created_at)!,
      lastDelivery: lastOf.get(row.id) ?? null,
    }));
  }

  /** 409 once the organization keeps MAX_WEBHOOKS endpoints. */
  const assertRoomForEndpoint = async (trx: Kysely<DB>, organizationId: string) => {
    const { count } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_WEBHOOKS) throw new ConflictError(WEBHOOK_LIMIT_MESSAGE);
  };

  /**
   * Checks the room left (409) and the URL (400 naming `url`) and keeps the endpoint; the secret is
   * answered only here. The count is taken again under a lock of the organization's endpoints, so
   * two requests at once (on two processes) cannot both add the last one.
   */
  async function create(
    actor: { organizationId: string | null; userId: string },
    body: { url: string; events: string[]; description?: string | undefined },
  ) {
    const organizationId = actor.organizationId;
    if (!organizationId) throw new ForbiddenError('Only members of an organization have webhooks');
    await assertRoomForEndpoint(db, organizationId);
    try {
      await resolveWebhookTarget(body.url, settings.allowPrivate, deps.resolver);
    } catch (error) {
      if (error instanceof WebhookAddressError) throw ValidationError.field('url', error.message);
      throw error;
    }
    const id = randomUUID();
    const secret = newWebhookSecret();
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${organizationId}`}))`.execute(
        trx,
      );
      await assertRoomForEndpoint(trx, organizationId);
      await trx
        .insertInto('webhook_endpoints')
        .values({
          id,
          organization_id: organizationId,
          url: body.url,
          events: JSON.stringify([...new Set(body.events)]),
          description: body.description?.trim() ?? '',
          secret_sealed: secrets.seal(secret, `webhook:${id}`),
          created_by: actor.userId,
          created_at: clock(),
        })
        .execute();
    });
    await announceEndpointsChanged();
    logger.info({ webhookId: id, organizationId }, 'webhook created');
    return { id, secret };
  }

  async function remove(organizationId: string | null, id: string) {
    await endpointOf(organizationId, id);
    await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await announceEndpointsChanged();
  }

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

  // ---- reactor ---------------------------------------------------------------------------------

  const readCheckpoint = async (): Promise<LogPosition> => {
    const row = await db
      .selectFrom('webhook_checkpoints')
      .select(['transaction_id', 'global_position'])
      .where('name', '=', CHECKPOINT)
      .executeTakeFirst();
    if (row)
      return {
        transactionId: String(row.transaction_id),
        globalPosition: String(row.global_position),
      };
    const head = await store.head();
    await sql`INSERT INTO webhook_checkpoints (name, transaction_id, global_position) VALUES (${CHECKPOINT}, ${head.transactionId}, ${head.globalPosition})
      ON CONFLICT (name) DO NOTHING`.execute(db);
    return readCheckpoint();
  };
  const writeCheckpoint = (trx: Kysely<DB>, position: LogPosition) =>
    sql`UPDATE webhook_checkpoints SET transaction_id = ${position.transactionId}, global_position = ${position.globalPosition}, updated_at = now() WHERE name = ${CHECKPOINT}`.execute(
      trx,
    );

  let checkpointWrittenAt = 0;
  const handlePage = async (page: RecordedEvent[]) => {
    const last = page[page.length - 1]!.position;
    const endpoints = await subscribedEndpoints();
    const candidates = new Set(endpoints.map((row) => row.organization_id));
    const relevant =
      candidates.size === 0
        ? []
        : page.filter((event) => livePushes(event).length > 0 || workOf([event]));
    const found: WebhookEvent[] = [];
    if (relevant.some((event) => livePushes(event).length === 0))
      await deps.projections?.waitFor(AUDIENCE_READ_MODELS, last, 5_000);
    for (const event of relevant) {
      try {
        const webhookEvent = await webhookEventOf(db, event, candidates, cache);
        if (webhookEvent && webhookEvent.organizations.length > 0) found.push(webhookEvent);
      } catch (error) {
        logger.warn({ err: error, eventId: event.id, type: event.type }, 'webhooks: event skipped');
      }
    }
    if (found.length === 0) {
      handled = last;
      // Pages with nothing to send move the checkpoint at most once a second: re-reading them after a restart costs nothing.
      if (Date.now() - checkpointWrittenAt < 1000) return;
      checkpointWrittenAt = Date.now();
      await writeCheckpoint(db, last);
      return;
    }
    await db.transaction().execute(async (trx) => {
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
        for (const endpoint of endpoints) {
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
      await writeCheckpoint(trx, last);
    });
    checkpointWrittenAt = Date.now();
    handled = last;
    wake();
  };

  // ---- sender ----------------------------------------------------------------------------------

  const backoff = (attempts: number) => {
    const base = Math.min(
      settings.maxDelayMs,
      settings.firstDelayMs * 2 ** Math.max(0, attempts - 1),
    );
    return Math.round(base * (0.75 + Math.random() * 0.5));
  };

  async function notifyManagers(
    endpoint: { id: string; organization_id: string; url: string },
    attempts: number,
    error: string | null,
  ) {
    const claimed = await db
      .updateTable('webhook_endpoints')
      .set({ failure_notified_at: clock() })
      .where('id', '=', endpoint.id)
      .where('failure_notified_at', 'is', null)
      .returning('id')
      .execute();
    if (claimed.length === 0) return;
    const users = await usersOfOrganizations(db, [endpoint.organization_id], GenericStatus.Active);
    const managers = users.filter((user) => hasAny(permissionsFor(user.role_id), USER_CREATE));
    for (const manager of managers) {
      try {
        await mailer.send({
          to: manager.email,
          subject: 'Webhook deliveries are failing',
          text: [
            `Hello ${manager.name},`,
            '',
            `Your webhook ${endpoint.url} has not accepted a delivery after ${attempts} attempts (last: ${error ?? 'no answer'}).`,
            'Deliveries are retried for 24 hours, in order, and then marked failed; later events wait behind them.',
            'Open Account settings, Webhooks, to see the deliveries, send a test event or replay them once the endpoint is fixed.',
          ].join('\n'),
        });
      } catch (mailError) {
        logger.warn(
          { err: mailError, webhookId: endpoint.id },
          'webhooks: failure e-mail not sent',
        );
      }
    }
  }

  async function attempt(deliveryId: string) {
    const row = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.attempts',
        'd.created_at',
        'd.status',
        'e.id as event_id',
        'e.type',
        'e.occurred_at',
        'e.data',
        'w.id as endpoint_id',
        'w.url',
        'w.secret_sealed',
        'w.organization_id',
      ])
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
    if (!row || row.status !== 'retrying') return;
    const body = JSON.stringify({
      id: row.event_id,
      type: row.type,
      occurredAt: iso(row.occurred_at),
      data: row.data,
    });
    const now = clock();
    let outcome;
    try {
      const secret = secrets.open(row.secret_sealed, `webhook:${row.endpoint_id}`);
      outcome = await postWebhook({
        url: row.url,
        body,
        headers: webhookHeaders(secret, row.event_id, Math.floor(now.getTime() / 1000), body),
        allowPrivate: settings.allowPrivate,
        timeoutMs: settings.timeoutMs,
        resolver: deps.resolver,
      });
    } catch (error) {
      outcome = { ok: false, status: null, error: (error as Error).message };
    }
    const attempts = row.attempts + 1;
    const at = clock();
    const giveUp =
      !outcome.ok && at.getTime() - new Date(row.created_at).getTime() >= settings.giveUpAfterMs;
    const status: DeliveryStatus = outcome.ok ? 'delivered' : giveUp ? 'failed' : 'retrying';
    await db
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempts,
        response_status: outcome.status,
        error: outcome.error,
        last_attempt_at: at,
        next_attempt_at: new Date(at.getTime() + (outcome.ok || giveUp ? 0 : backoff(attempts))),
      })
      .where('id', '=', row.id)
      .execute();
    deps.onDelivery?.(status);
    if (outcome.ok) {
      await db
        .updateTable('webhook_endpoints')
        .set({ failure_notified_at: null })
        .where('id', '=', row.endpoint_id)
        .where('failure_notified_at', 'is not', null)
        .execute();
    } else {
      logger.warn(
        {
          webhookId: row.endpoint_id,
          eventId: row.event_id,
          attempts,
          status: outcome.status,
          error: outcome.error,
        },
        giveUp ? 'webhook delivery failed' : 'webhook delivery will be retried',
      );
      if (attempts >= settings.notifyAfterAttempts || giveUp)
        await notifyManagers(
          { id: row.endpoint_id, organization_id: row.organization_id, url: row.url },
          attempts,
          outcome.error,
        );
    }
  }

  // Old events go, with their audience and deliveries (the foreign keys cascade), at most once an hour.
  let prunedAt = 0;
  async function prune() {
    if (Date.now() - prunedAt < 60 * 60_000) return;
    prunedAt = Date.now();
    const before = new Date(clock().getTime() - settings.retentionMs);
    await db.deleteFrom('webhook_events').where('occurred_at', '<', before).execute();
  }

  let ticking: Promise<void> | null = null;
  let again = false;
  async function tick() {
    if (stopped || !leader) return;
    await prune().catch((error: unknown) =>
      logger.warn({ err: error }, 'webhooks: old events not pruned'),
    );
    const free = settings.concurrency - inFlight.size;
    if (free <= 0) return;
    const heads = await sql<{ id: string; endpoint_id: string; next_attempt_at: Date }>`
      SELECT DISTINCT ON (endpoint_id) id, endpoint_id, next_attempt_at FROM webhook_deliveries WHERE status = 'retrying' ORDER BY endpoint_id, id`.execute(
      db,
    );
    const now = clock().getTime();
    const due = heads.rows
      .filter(
        (head) =>
          !inFlight.has(head.endpoint_id) && new Date(head.next_attempt_at).getTime() <= now,
      )
      .slice(0, free);
    for (const head of due) {
      const running = attempt(String(head.id))
        .catch((error: unknown) =>
          logger.warn(
            { err: error, deliveryId: head.id },
            'webhooks: attempt could not be recorded',
          ),
        )
        .finally(() => {
          inFlight.delete(head.endpoint_id);
          wake();
        });
      inFlight.set(head.endpoint_id, running);
    }
  }
  function wake() {
    if (stopped || !leader) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = tick()
      .catch((error: unknown) => logger.warn({ err: error }, 'webhooks: sender tick failed'))
      .finally(() => {
        ticking = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  const claim = async () => {
    retry = null;
    if (stopped) return;
    try {
      if (await leadership.holds(JOB)) {
        const from = await readCheckpoint();
        if (stopped) return;
        // PGlite serves one process, whose own changes are heard without a notice.
        if (database.kind === 'postgres')
          stopListening = await database.listen(ENDPOINTS_CHANNEL, endpointsChanged);
        endpointsChanged();
        handled = from;
        leader = true;
        subscription = store.subscribe({ from, pageSize: 500 }, handlePage);
        poll = setInterval(wake, settings.pollMs);
        poll.unref();
        wake();
        return;
      }
    } catch (error) {
      if (stopped) return;
      logger.warn({ err: error }, 'webhooks could not start');
      await stopListening?.().catch(() => undefined);
      stopListening = null;
      await leadership.reset();
    }
    if (stopped) return;
    retry = setTimeout(() => void claim(), 2000);
    retry.unref();
  };
  const started = deps.background ? claim() : Promise.resolve();

  return {
    list,
    create,
    remove,
    deliveries,
    replay,
    test,
    /** Resolves once the reactor has handled the log up to `position` (false after the timeout). */
    async waitFor(position: LogPosition, timeoutMs = 5_000): Promise<boolean> {
      await started;
      const deadline = Date.now() + timeoutMs;
      while (!handled || comparePositions(handled, position) < 0) {
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return true;
    },
    /** Looks for due deliveries now. */
    wake,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (poll) clearInterval(poll);
      await started.catch(() => undefined);
      await subscription?.close();
      subscription = null;
      await stopListening?.();
      stopListening = null;
      await ticking;
      await Promise.allSettled([...inFlight.values()]);
      await leadership.release();
    },
  };
}
