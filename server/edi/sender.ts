/**
 * Delivers outgoing EDI documents to their partners' URLs: POST of the X12 text
 * (`content-type: application/edi-x12`), signed as webhooks are (`webhook-id` the document's id,
 * `webhook-timestamp`, `webhook-signature` with the partner's signing secret), to the address
 * checked as a webhook's. Each attempt is kept; a failure is tried again after a growing wait (the
 * webhooks' waits), and is `failed` once the webhooks' give-up time has passed. One partner's
 * documents go in order. Runs in the process that holds the lock `scheduler:ediSender`.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { runUnderLock, type LockedInterval } from '../reactors/lockedInterval.ts';
import type { Resolver } from '../webhooks/addresses.ts';
import { postWebhook } from '../webhooks/send.ts';
import type { WebhookSettings } from '../webhooks/settings.ts';
import { webhookHeaders } from '../webhooks/signature.ts';
import type { Partners } from './partners.ts';

export function createEdiSender(deps: {
  database: Database;
  partners: Partners;
  settings: WebhookSettings;
  logger: Logger;
  clock: () => Date;
  resolver?: Resolver;
}) {
  const { database, partners, settings, clock } = deps;
  const db = database.db;
  let loop: LockedInterval | null = null;
  let passing: Promise<void> | null = null;
  let again = false;

  const attempt = async (document: {
    id: string;
    partner_id: string;
    raw: string;
    attempts: number;
    created_at: Date;
  }) => {
    const partner = await partners.byId(document.partner_id);
    if (!partner?.deliver_url) return;
    const secret = partners.signingSecretOf(partner) ?? '';
    const timestamp = Math.floor(clock().getTime() / 1000);
    const outcome = await postWebhook({
      url: partner.deliver_url,
      body: document.raw,
      headers: {
        'content-type': 'application/edi-x12',
        'user-agent': 'FreightMarketplace-EDI/1',
        ...webhookHeaders(secret, document.id, timestamp, document.raw),
      },
      allowPrivate: settings.allowPrivate,
      timeoutMs: settings.timeoutMs,
      resolver: deps.resolver,
    });
    const now = clock();
    const attempts = document.attempts + 1;
    const giveUp =
      now.getTime() - new Date(document.created_at).getTime() >= settings.giveUpAfterMs;
    const delay = Math.min(settings.maxDelayMs, settings.firstDelayMs * 2 ** (attempts - 1));
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('edi_attempts')
        .values({
          document_id: document.id,
          ok: outcome.ok,
          response_status: outcome.status,
          error: outcome.error,
          at: now,
        })
        .execute();
      await trx
        .updateTable('edi_documents')
        .set({
          attempts,
          response_status: outcome.status,
          last_error: outcome.error,
          last_attempt_at: now,
          status: outcome.ok ? 'delivered' : giveUp ? 'failed' : 'retrying',
          next_attempt_at: outcome.ok || giveUp ? null : new Date(now.getTime() + delay),
        })
        .where('id', '=', document.id)
        .execute();
    });
    return outcome.ok;
  };

  /** Sends what is due: per partner its oldest waiting document first, and none behind one that failed. */
  const pass = async () => {
    for (let round = 0; round < 20; round++) {
      const now = clock();
      const due = await db
        .selectFrom('edi_documents')
        .select(['id', 'partner_id', 'raw', 'attempts', 'created_at', 'next_attempt_at', 'seq'])
        .where('direction', '=', 'out')
        .where('status', 'in', ['queued', 'retrying'])
        .orderBy('seq')
        .limit(200)
        .execute();
      const firstPerPartner = new Map<string, (typeof due)[number]>();
      for (const document of due)
        if (!firstPerPartner.has(document.partner_id))
          firstPerPartner.set(document.partner_id, document);
      const ready = [...firstPerPartner.values()].filter(
        (document) => !document.next_attempt_at || new Date(document.next_attempt_at) <= now,
      );
      if (ready.length === 0) return;
      const results = await Promise.all(ready.map((document) => attempt(document)));
      if (!results.some(Boolean)) return;
    }
  };

  const runPass = async () => {
    if (passing) {
      again = true;
      return passing;
    }
    passing = (async () => {
      do {
        again = false;
        await pass();
      } while (again);
    })().finally(() => {
      passing = null;
    });
    return passing;
  };

  return {
    start() {
      loop ??= runUnderLock({
        database,
        lock: 'scheduler:ediSender',
        intervalMs: settings.pollMs,
        logger: deps.logger,
        failure: 'EDI: a delivery pass failed',
        pass: runPass,
      });
    },
    /**
     * Looks for due documents now. On PGlite the one process sends; on PostgreSQL the lock's holder
     * finds them at its next pass (`pollMs`).
     */
    wake() {
      if (!loop || loop.stopped || database.kind === 'postgres') return;
      runPass().catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'EDI: a delivery pass failed'),
      );
    },
    async stop() {
      await loop?.stop();
      await passing?.catch(() => undefined);
    },
  };
}
