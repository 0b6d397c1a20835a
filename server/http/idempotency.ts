import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorBodySchema } from '../../domain/contracts/common.ts';
import { ConflictError, DomainError, ValidationError } from '../../domain/shared/errors.ts';
import { BodyDigest } from './bodyDigest.ts';
import type { App } from './routeContext.ts';

/**
 * `Idempotency-Key` on the commands that create things (Stripe's scheme). The first request with a
 * key stores (user, key, method and path, SHA-256 of the body, status, answer) once it completes; a
 * retry with the same key and body gets that answer again with `Idempotent-Replayed: true` and no
 * second effect; the same key with another body or path is refused with 422. Keys are per user and
 * kept 24 hours.
 *
 * While the first request runs, a copy arriving at the same server process waits for it and gets
 * its answer; a copy at another process (the row is there, its answer not yet) gets 409 at once,
 * as does a copy that waited longer than IN_FLIGHT_WAIT_MS. A first request that ends in 409, 429
 * or 5xx stores nothing, so the key can be retried.
 */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/loads',
  'POST /api/proposal/:id',
  'POST /api/loads/:id/book',
  'POST /api/users',
  'POST /api/users/organization',
  'POST /api/loads/batchImport',
  'POST /api/tours/:id/chat',
  'POST /api/tours/:id/events',
  'POST /api/searches',
]);

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IN_FLIGHT_WAIT_MS = 30_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const CLEANUP_EVERY_MS = 60_000;

/** What a request of an idempotent route carries from hook to hook. */
type Tracking = {
  key: string;
  userId: string;
  target: string;
  body: BodyDigest;
  /** Set when this request is the first with its key and must store its answer. */
  owner?: { release: () => void };
  replayed?: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Tracking | null;
  }
}

/**
 * Registers the hooks on the routes of the list only (on the root app, before the routes, so each
 * of them gets them): every other request goes through none of them.
 */
export function registerIdempotency(app: App): void {
  const { db } = app.platform.database;
  /** First requests running in this process, by user and key: copies wait for them. */
  const running = new Map<string, Promise<void>>();
  let lastCleanup = 0;

  app.decorateRequest('idempotency', null);

  const onRequest = async (request: FastifyRequest) => {
    request.idempotency = null;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!KEY_SHAPE.test(key))
      throw ValidationError.field(
        'Idempotency-Key',
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters',
      );
    // The route's own guard (its onRequest `can(...)`) runs after this and refuses the anonymous.
    request.idempotency = {
      key,
      userId: '',
      target: `${request.method} ${request.url.split('?')[0]}`,
      body: new BodyDigest(request.raw),
    };
  };

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const tracking = request.idempotency;
    if (!tracking || !request.actor) return;
    tracking.userId = request.actor.userId;
    const now = Date.now();
    if (now - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = now;
      await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<', new Date(now - IDEMPOTENCY_TTL_MS))
        .execute();
    }
    const local = `${tracking.userId}\n${tracking.key}`;
    const deadline = now + IN_FLIGHT_WAIT_MS;
    for (;;) {
      const first = running.get(local);
      if (first) {
        // A copy of a request this process is running: its answer is what this one gets.
        if (Date.now() >= deadline) throw inFlight();
        await Promise.race([
          first,
          new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref()),
        ]);
        continue;
      }
      let release!: () => void;
      running.set(
        local,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      const claim = () => {
        running.delete(local);
        release();
      };
      try {
        await db
          .deleteFrom('idempotency_keys')
          .where('user_id', '=', tracking.userId)
          .where('key', '=', tracking.key)
          .where('created_at', '<', new Date(Date.now() - IDEMPOTENCY_TTL_MS))
          .execute();
        const inserted = await db
          .insertInto('idempotency_keys')
          .values({
            user_id: tracking.userId,
            key: tracking.key,
            target: tracking.target,
            request_hash: tracking.body.digest(),
            status_code: null,
            content_type: null,
            response_body: null,
            created_at: new Date(),
            completed_at: null,
          })
          .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
          .returning('key')
          .executeTakeFirst();
        if (inserted) {
          tracking.owner = { release: claim };
          return;
        }
      } catch (error) {
        claim();
        throw error;
      }
      claim();
      const row = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('user_id', '=', tracking.userId)
        .where('key', '=', tracking.key)
        .executeTakeFirst();
      // Gone since: the first one failed and left the key free. Try to be the first again.
      if (!row) continue;
      if (row.status_code === null) throw inFlight();
      const hash = tracking.body.digest() ?? (await tracking.body.readToEnd());
      if (row.target !== tracking.target || row.request_hash !== hash) {
        throw new UnprocessableError(
          'This Idempotency-Key was already used with a different request',
        );
      }
      tracking.replayed = true;
      const body = row.response_body ? toBuffer(row.response_body) : null;
      reply.code(row.status_code).header('idempotent-replayed', 'true');
      if (row.content_type) reply.header('content-type', row.content_type);
      return reply.send(body ?? undefined);
    }
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const tracking = request.idempotency;
    if (!tracking?.owner) return payload;
    const { release } = tracking.owner;
    tracking.owner = undefined;
    try {
      const status = reply.statusCode;
      const hash = tracking.body.digest();
      const storable =
        status < 500 &&
        status !== 409 &&
        status !== 429 &&
        hash !== null &&
        (payload === null ||
          payload === undefined ||
          typeof payload === 'string' ||
          Buffer.isBuffer(payload));
      const row = db
        .updateTable('idempotency_keys')
        .where('user_id', '=', tracking.userId)
        .where('key', '=', tracking.key);
      if (storable) {
        const contentType = reply.getHeader('content-type');
        await row
          .set({
            request_hash: hash,
            status_code: status,
            content_type: contentType === undefined ? null : String(contentType),
            response_body:
              payload === null || payload === undefined
                ? null
                : Buffer.from(payload as string | Buffer),
            completed_at: new Date(),
          })
          .execute();
      } else {
        // Nothing to replay: the key is free for another try.
        await db
          .deleteFrom('idempotency_keys')
          .where('user_id', '=', tracking.userId)
          .where('key', '=', tracking.key)
          .execute();
      }
    } finally {
      release();
    }
    return payload;
  };

  // A request that ends without sending (a dropped connection) must not hold its key forever.
  const onResponse = async (request: FastifyRequest) => {
    const tracking = request.idempotency;
    if (!tracking?.owner) return;
    const { release } = tracking.owner;
    tracking.owner = undefined;
    await db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', tracking.userId)
      .where('key', '=', tracking.key)
      .execute()
      .finally(release);
  };

  const hooksOf = (hooks: unknown) => (hooks === undefined ? [] : [hooks].flat());
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((method) => IDEMPOTENT_ROUTES.has(`${method} ${route.url}`)))
      return;
    // First among the route's own onRequest hooks: its guard (`can(...)`) runs after this and refuses the anonymous.
    route.onRequest = [onRequest, ...hooksOf(route.onRequest)] as typeof route.onRequest;
    route.preHandler = [preHandler, ...hooksOf(route.preHandler)] as typeof route.preHandler;
    route.onSend = [onSend, ...hooksOf(route.onSend)] as typeof route.onSend;
    route.onResponse = [onResponse, ...hooksOf(route.onResponse)] as typeof route.onResponse;
    // Its answers, documented: 409 while a copy runs, 422 when the key names another request.
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    route.schema = {
      ...route.schema,
      response: { 409: ErrorBodySchema, 422: ErrorBodySchema, ...response },
    };
  });
}

const inFlight = () =>
  new ConflictError(
    'A request with this Idempotency-Key is still being processed. Try again shortly.',
  );

/** 422: the key names another request (domain/shared/errors.ts has no 422 class). */
class UnprocessableError extends DomainError {
  readonly statusCode = 422;
}

// pg answers bytea as a Buffer, PGlite as a plain Uint8Array.
const toBuffer = (data: Uint8Array) =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
