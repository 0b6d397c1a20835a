/**
 * What one socket may ask of the server (docs/api.md "Realtime", "Limits"). Every client event takes
 * a token from the socket's bucket and from its user's bucket (all the user's sockets in this
 * process), and at most a few of a socket's events are handled at once; `tour:watch` of tours that
 * are not found are counted, and past a few the next unknown one costs no query. A socket that goes past any
 * of these is told why (`limit:exceeded`) and closed: one socket emitting thousands of events at
 * once would otherwise hold the database pool and stall everyone else's requests.
 *
 * The app's own client (client/src/realtime/socket.ts) sends a `tour:watch` per screen that shows a
 * tour, all of them again after a reconnection, and an `auth:refresh` every few minutes: far below.
 */
import type { LimitExceededPayload } from '../../domain/realtime/events.ts';

/** Events a second one socket may send, sustained... */
export const SOCKET_EVENTS_PER_SECOND = 20;
/** ...and at once after a quiet moment (a reconnection re-watching its tours). */
export const SOCKET_EVENT_BURST = 40;
/**
 * Events a second one user may send over all its sockets in one server process, and at once; with
 * SOCKET_USER_EVENTS_PER_SECOND, that many a second and twice as many at once (the benchmarks open
 * a thousand sockets of one user, each watching a tour).
 */
export const USER_EVENTS_PER_SECOND = 50;
export const USER_EVENT_BURST = 2 * USER_EVENTS_PER_SECOND;
/** A socket's events being handled at once (sent and not answered yet). */
export const MAX_EVENTS_IN_FLIGHT = 8;
/** `tour:watch` answered 'Tour not found' (no such tour, or not the user's) on one socket; the next unknown tour closes it. */
export const MAX_TOURS_NOT_FOUND = 10;

export type Breach = LimitExceededPayload;

/** A token bucket: `rate` tokens a second, at most `burst` kept. */
type Bucket = { tokens: number; at: number };

function take(bucket: Bucket, rate: number, burst: number, now: number): boolean {
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
  bucket.at = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

export const breaches = {
  socket: {
    limit: 'events',
    reason: `Too many events: at most ${SOCKET_EVENTS_PER_SECOND} a second on one connection`,
  },
  inFlight: {
    limit: 'inFlight',
    reason: `Too many requests at once: at most ${MAX_EVENTS_IN_FLIGHT} unanswered on one connection`,
  },
  toursNotFound: {
    limit: 'toursNotFound',
    reason: `Too many tours not found: at most ${MAX_TOURS_NOT_FOUND} on one connection`,
  },
} as const satisfies Record<string, Breach>;

/** One socket's share of the budget; `close` when the socket closes. */
export type SocketBudget = {
  /** An incoming event: null when it fits, else what it went past. */
  admit(): Breach | null;
  /** Runs an event's handler (which reports its own failures) if fewer than the maximum run on this socket; else the breach, and `work` is not run. */
  run(work: () => Promise<unknown>): Breach | null;
  /** A `tour:watch` was answered 'Tour not found' (counted). */
  notFound(): void;
  /** Whether the count of tours not found is spent: another unknown tour would be one too many (close, ask nothing). */
  readonly notFoundSpent: boolean;
  close(): void;
};

export type EventBudget = { open(owner: string): SocketBudget; readonly owners: number };

const userBreach = (perSecond: number): Breach => ({
  limit: 'userEvents',
  reason: `Too many events: at most ${perSecond} a second over all your connections`,
});

/**
 * The budgets of this process; `owner` is the user (or a tracking link) whose sockets share one
 * bucket of `userEventsPerSecond` (USER_EVENTS_PER_SECOND unless SOCKET_USER_EVENTS_PER_SECOND says otherwise).
 */
export function createEventBudget(
  options: { userEventsPerSecond?: number; now?: () => number } = {},
): EventBudget {
  const now = options.now ?? Date.now;
  const userRate = options.userEventsPerSecond ?? USER_EVENTS_PER_SECOND;
  const userBurst = 2 * userRate;
  const overUser = userBreach(userRate);
  const owners = new Map<string, { bucket: Bucket; sockets: number }>();

  return {
    open(owner) {
      let shared = owners.get(owner);
      if (!shared)
        owners.set(owner, (shared = { bucket: { tokens: userBurst, at: now() }, sockets: 0 }));
      shared.sockets += 1;
      const own: Bucket = { tokens: SOCKET_EVENT_BURST, at: now() };
      let notFound = 0;
      let inFlight = 0;
      let closed = false;
      return {
        admit() {
          const at = now();
          if (!take(own, SOCKET_EVENTS_PER_SECOND, SOCKET_EVENT_BURST, at)) return breaches.socket;
          if (!take(shared.bucket, userRate, userBurst, at)) return overUser;
          return null;
        },
        run(work) {
          if (inFlight >= MAX_EVENTS_IN_FLIGHT) return breaches.inFlight;
          inFlight += 1;
          // `work` answers its own failures; this only counts it out.
          void work()
            .catch(() => undefined)
            .finally(() => {
              inFlight -= 1;
            });
          return null;
        },
        notFound() {
          notFound += 1;
        },
        get notFoundSpent() {
          return notFound >= MAX_TOURS_NOT_FOUND;
        },
        close() {
          if (closed) return;
          closed = true;
          shared.sockets -= 1;
          if (shared.sockets > 0) return;
          // Kept until it would be full again: a socket closed for its flood and opened again at once
          // finds its user's bucket as it left it.
          const refilled = setTimeout(
            () => {
              if (owners.get(owner) === shared && shared.sockets === 0) owners.delete(owner);
            },
            (userBurst / userRate) * 1000,
          );
          refilled.unref();
        },
      };
    },
    get owners() {
      return owners.size;
    },
  };
}
