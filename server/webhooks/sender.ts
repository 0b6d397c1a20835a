/**
 * The sender works through each endpoint's deliveries in id order (the log's order): the next waits
 * until the one before is delivered or has failed. An attempt that gets no 2xx within the timeout is
 * retried with exponential backoff and jitter; after `giveUpAfterMs` the delivery is `failed`.
 * Endpoints are served side by side, at most `concurrency` attempts at a time, so a slow or dead one
 * holds up only itself. A delivery is marked delivered after the 2xx: at least once. After
 * `notifyAfterAttempts` failed attempts in a row, the organization's managers get an e-mail, once
 * until the endpoint delivers again. It runs in the process that leads the webhooks reactor.
 */
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { GenericStatus } from '../../domain/catalog.ts';
import { hasAny, permissionsFor, USER_CREATE } from '../../domain/permissions.ts';
import { usersOfOrganizations } from '../../projections/users/users.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { Resolver } from './addresses.ts';
import { iso, type DeliveryStatus } from './deliveries.ts';
import { postWebhook, type AttemptOutcome } from './send.ts';
import type { WebhookSettings } from './settings.ts';
import { webhookHeaders } from './signature.ts';

export type Sender = ReturnType<typeof createSender>;

export function createSender(deps: {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  secrets: SecretBox;
  settings: WebhookSettings;
  clock: () => Date;
  resolver?: Resolver;
  /** Hears every attempt's outcome (the `webhook_deliveries_total{status}` counter). */
  onDelivery?: (status: DeliveryStatus) => void;
}) {
  const { db, mailer, logger, secrets, settings, clock } = deps;
  const inFlight = new Map<string, Promise<void>>();
  let stopped = false;
  let leader = false;
  let poll: NodeJS.Timeout | null = null;

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
    if (row?.status !== 'retrying') return;
    const body = JSON.stringify({
      id: row.event_id,
      type: row.type,
      occurredAt: iso(row.occurred_at),
      data: row.data,
    });
    const now = clock();
    let outcome: AttemptOutcome;
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

  return {
    wake,
    /** This process leads: look for due deliveries every `pollMs`, and now. */
    start() {
      if (stopped) return;
      leader = true;
      poll = setInterval(wake, settings.pollMs);
      poll.unref();
      wake();
    },
    async stop() {
      stopped = true;
      if (poll) clearInterval(poll);
      await ticking;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
