/**
 * Read-your-writes without holding the writer. A command answers as soon as its events are
 * committed, with the log position of its last event in the `X-Log-Position` header (a consistency
 * token). A signed-in read (GET) then waits until the read models have reached the newest write this
 * process acknowledged, or the token it carries when that is newer, before it reads them: whoever
 * asks after a 201 (the same user, another user, another tab) sees the load, as when every write
 * waited. A token is what carries the promise to another server process.
 *
 * Reads pay only while a write is not yet projected (milliseconds); once the read models have passed
 * the newest acknowledged write, reads go on at once. The wait is bounded (CONSISTENCY_WAIT_MS, as
 * the writes used to wait): a read model that is held back longer answers what it has.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { comparePositions, type LogPosition } from '../eventstore/eventStore.ts';

export const LOG_POSITION_HEADER = 'x-log-position';
/** The read models a consistency token waits for: those the commands that answer one change. */
export const CONSISTENT_VIEWS = ['marketplace'] as const;
export const CONSISTENCY_WAIT_MS = 2_000;

/** `<transaction id>.<global position>`, both unsigned 64-bit decimals. */
export const formatLogPosition = (position: LogPosition) =>
  `${position.transactionId}.${position.globalPosition}`;

const TOKEN_SHAPE = /^(\d{1,20})\.(\d{1,20})$/;
const UINT64_MAX = 18_446_744_073_709_551_615n;
/** The position a token names, or null for anything else (a malformed token is ignored, never an error). */
export function parseLogPosition(text: unknown): LogPosition | null {
  if (typeof text !== 'string') return null;
  const match = TOKEN_SHAPE.exec(text.trim());
  if (!match || BigInt(match[1]!) > UINT64_MAX || BigInt(match[2]!) > UINT64_MAX) return null;
  return {
    transactionId: BigInt(match[1]!).toString(),
    globalPosition: BigInt(match[2]!).toString(),
  };
}

export type ReadModelWaiter = {
  waitFor(
    names: readonly string[],
    position: LogPosition | null,
    timeoutMs?: number,
  ): Promise<boolean>;
};

export function createConsistency(runner: ReadModelWaiter) {
  /** The newest position a command of this process acknowledged, until the read models have passed it. */
  let pending: LogPosition | null = null;

  return {
    /** After a command: hands the client its token and makes every later read wait for it. */
    wrote(_request: FastifyRequest, reply: FastifyReply, position: LogPosition | null) {
      if (!position) return;
      reply.header(LOG_POSITION_HEADER, formatLogPosition(position));
      if (!pending || comparePositions(position, pending) > 0) pending = position;
    },

    /**
     * Before a signed-in read is handled: waits for the newer of the token it carries and the newest
     * acknowledged write. Commands never wait (they decide on streams, which a read model's lag
     * cannot touch), nor do anonymous requests.
     */
    hook(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
      // Most requests have nothing to wait for: they go on at once, with no promise made.
      if (!request.actor || (request.method !== 'GET' && request.method !== 'HEAD')) {
        done();
        return;
      }
      const own = pending;
      const sent =
        request.headers[LOG_POSITION_HEADER] === undefined
          ? null
          : parseLogPosition(request.headers[LOG_POSITION_HEADER]);
      if (!own && !sent) {
        done();
        return;
      }
      const position =
        own && sent ? (comparePositions(own, sent) >= 0 ? own : sent) : (own ?? sent)!;
      runner.waitFor(CONSISTENT_VIEWS, position, CONSISTENCY_WAIT_MS).then((reached) => {
        // Passed: later reads need not ask again until the next write.
        if (reached && own && pending === own) pending = null;
        done();
      }, done);
    },
  };
}
export type Consistency = ReturnType<typeof createConsistency>;
