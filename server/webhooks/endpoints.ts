/**
 * An organization's webhook endpoints: listed, created (with a secret shown once and kept sealed),
 * removed. Every change is announced, so the reactor of this process and of any other on the same
 * PostgreSQL reads the endpoints again.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { MAX_WEBHOOKS, WEBHOOK_LIMIT_MESSAGE } from '../../domain/contracts/webhooks.contract.ts';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import type { DB } from '../../storage/schema.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import type { Database } from '../db/database.ts';
import { resolveWebhookTarget, WebhookAddressError, type Resolver } from './addresses.ts';
import { deliveryOf, iso, type WebhookEndpoint } from './deliveries.ts';
import type { WebhookSettings } from './settings.ts';
import { newWebhookSecret } from './signature.ts';

/** Told of every change to the endpoints, for the reactor of another process on the same PostgreSQL. */
export const ENDPOINTS_CHANNEL = 'webhook_endpoints_changed';

export type EndpointRow = { id: string; organization_id: string; events: string[] };

/**
 * Who may hear of events, as the reactor last read it: read again after a change (this process's
 * own create or remove, another process's through ENDPOINTS_CHANNEL, a reconnection of the
 * listener) or after `endpointsFreshMs` in any case, instead of once for every page of the log.
 */
export function createEndpointList(deps: {
  database: Database;
  settings: WebhookSettings;
  logger: Pick<Logger, 'warn'>;
}) {
  const { database, settings, logger } = deps;
  const db = database.db;
  let endpointsRead: { rows: Promise<EndpointRow[]>; at: number } | null = null;
  const changed = () => {
    endpointsRead = null;
  };
  const subscribed = (): Promise<EndpointRow[]> => {
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
  const announce = async () => {
    changed();
    if (database.kind !== 'postgres') return;
    // The change is committed: a notice that does not go out leaves the other reactor's list stale
    // for `endpointsFreshMs` at most, and is no error of the request.
    await sql`SELECT pg_notify(${ENDPOINTS_CHANNEL}, '')`
      .execute(db)
      .catch((error: unknown) => logger.warn({ err: error }, 'webhooks: change notice not sent'));
  };
  return { subscribed, changed, announce };
}

export function createEndpoints(deps: {
  db: Kysely<DB>;
  logger: Pick<Logger, 'info'>;
  secrets: SecretBox;
  settings: WebhookSettings;
  clock: () => Date;
  resolver?: Resolver;
  /** Called after each committed change. */
  announce(): Promise<void>;
}) {
  const { db, logger, secrets, settings, clock, announce } = deps;

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
    await announce();
    logger.info({ webhookId: id, organizationId }, 'webhook created');
    return { id, secret };
  }

  async function remove(organizationId: string | null, id: string) {
    await endpointOf(organizationId, id);
    await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await announce();
  }

  return { endpointOf, list, create, remove };
}
