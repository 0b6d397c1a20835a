/**
 * Read-your-writes without holding the writer. A command answers as soon as its events are
 * committed, with the log position of its last event in the `X-Log-Position` header (a consistency
 * token). A later request that carries the token (the browser sends the newest one it was given)
 * waits until the read models have reached that position before it reads them (GET), so a list shown
 * after a post holds the load. The server also remembers the newest position each session wrote in
 * this process, so the same session reads its writes even when it sends no token; a token is what
 * carries that promise to another session or another server process.
 *
 * The wait is bounded (CONSISTENCY_WAIT_MS, as the writes used to wait): a read model that is held
 * back longer answers what it has.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { comparePositions, type LogPosition } from '../eventstore/eventStore.ts';

export const LOG_POSITION_HEADER = 'x-log-position';
/** The read models a consistency token waits for: those the commands that answer one change. */
export const CONSISTENT_VIEWS = ['marketplace'] as const;
export const CONSISTENCY_WAIT_MS = 2_000;
const SESSIONS_MAX = 10_000;

/** `<transaction id>.<global position>`, both unsigned 64-bit decimals. */
export const formatLogPosition = (position: LogPosition) => `${position.transactionId}.${position.globalPosition}`;

const TOKEN_SHAPE = /^(\d{1,20})\.(\d{1,20})$/;
const UINT64_MAX = 18_446_744_073_709_551_615n;
/** The position a token names, or null for anything else (a malformed token is ignored, never an error). */
export function parseLogPosition(text: unknown): LogPosition | null {
  if (typeof text !== 'string') return null;
  const match = TOKEN_SHAPE.exec(text.trim());
  if (!match || BigInt(match[1]!) > UINT64_MAX || BigInt(match[2]!) > UINT64_MAX) return null;
  return { transactionId: BigInt(match[1]!).toString(), globalPosition: BigInt(match[2]!).toString() };
}

export type ReadModelWaiter = { waitFor(names: readonly string[], position: LogPosition | null, timeoutMs?: number): Promise<boolean> };

export function createConsistency(runner: ReadModelWaiter) {
  /** The newest position each session wrote here, until the read models have passed it. Insertion order is age order. */
  const written = new Map<string, LogPosition>();

  return {
    /** After a command: hands the client its token and remembers it for the session. */
    wrote(request: FastifyRequest, reply: FastifyReply, position: LogPosition | null) {
      if (!position) return;
      reply.header(LOG_POSITION_HEADER, formatLogPosition(position));
      const session = request.actor?.sessionId;
      if (!session) return;
      const known = written.get(session);
      written.delete(session);
      written.set(session, known && comparePositions(known, position) > 0 ? known : position);
      while (written.size > SESSIONS_MAX) written.delete(written.keys().next().value!);
    },

    /**
     * Before a signed-in read is handled: waits for the newer of the token it carries and its
     * session's own last write. Commands never wait (they decide on streams, which a read model's lag
     * cannot touch), nor do anonymous requests.
     */
    hook(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
      const actor = request.actor;
      // Most requests have nothing to wait for: they go on at once, with no promise made.
      if (!actor || (request.method !== 'GET' && request.method !== 'HEAD')) return done();
      const own = written.get(actor.sessionId) ?? null;
      const sent = request.headers[LOG_POSITION_HEADER] === undefined ? null : parseLogPosition(request.headers[LOG_POSITION_HEADER]);
      if (!own && !sent) return done();
      const position = own && sent ? (comparePositions(own, sent) >= 0 ? own : sent) : (own ?? sent)!;
      runner.waitFor(CONSISTENT_VIEWS, position, CONSISTENCY_WAIT_MS).then((reached) => {
        // Passed: the session's entry has done its work.
        if (reached && own && written.get(actor.sessionId) === own) written.delete(actor.sessionId);
        done();
      }, done);
    },
  };
}
export type Consistency = ReturnType<typeof createConsistency>;
