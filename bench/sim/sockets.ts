/**
 * The browsers of the simulation: watchers on tour rooms (a shipper's or a carrier's tracking page,
 * `tour:watch`) hearing `tour:position`, and carrier dispatchers on the marketplace hearing
 * `load:posted`. Every push is matched to the request that caused it, so its latency is measured
 * from that request.
 */
import { io, type Socket } from 'socket.io-client';
import { inPool, type Tour } from './setup.ts';
import { Samples } from './stats.ts';

/** A position the simulation sent, keyed by tour and recordedAt (the push carries both). */
type SentPosition = {
  sentAt: number;
  expected: number;
  received: number;
  accepted: boolean;
  acceptedAt: number;
};
/** A load posted during the run; pushes that arrive before its 201 wait in `early`. */
type PostedLoad = { sentAt: number; createdAt: number | null; early: number[]; received: number };

export const positionKey = (tourId: string, recordedAt: string) => `${tourId}|${recordedAt}`;

export class PositionPushes {
  readonly sent = new Map<string, SentPosition>();
  /** Send (POST fired) to receipt at a watcher, ms, stamped at receipt. */
  readonly latency = new Samples();
  unmatched = 0;

  readonly watchersOf: Map<string, number>;

  constructor(watchersOf: Map<string, number>) {
    this.watchersOf = watchersOf;
  }

  sending(tourId: string, recordedAt: string, at: number) {
    this.sent.set(positionKey(tourId, recordedAt), {
      sentAt: at,
      expected: this.watchersOf.get(tourId) ?? 0,
      received: 0,
      accepted: false,
      acceptedAt: 0,
    });
  }

  accepted(tourId: string, recordedAt: string, at: number) {
    const sent = this.sent.get(positionKey(tourId, recordedAt));
    if (sent) Object.assign(sent, { accepted: true, acceptedAt: at });
  }

  heard(payload: { tourId: string; recordedAt: string }, at: number) {
    const sent = this.sent.get(positionKey(payload.tourId, payload.recordedAt));
    if (!sent) {
      this.unmatched++;
      return;
    }
    sent.received++;
    this.latency.add(at, at - sent.sentAt);
  }

  /** Deliveries received and expected for the positions accepted before `before`. */
  delivery(before = Number.POSITIVE_INFINITY): { received: number; expected: number } {
    let received = 0;
    let expected = 0;
    for (const sent of this.sent.values()) {
      if (!sent.accepted || sent.acceptedAt >= before) continue;
      received += sent.received;
      expected += sent.expected;
    }
    return { received, expected };
  }
}

export class LoadPushes {
  readonly loads = new Map<string, PostedLoad>();
  /** The load POST's 201 to receipt at a dispatcher, ms (negative: the push came first). */
  readonly afterCreated = new Samples();
  /** The load POST fired to receipt at a dispatcher, ms. */
  readonly afterSent = new Samples();
  private readonly early = new Map<string, number[]>();
  unmatched = 0;

  readonly dispatchers: number;

  constructor(dispatchers: number) {
    this.dispatchers = dispatchers;
  }

  created(loadId: string, sentAt: number, createdAt: number) {
    const load: PostedLoad = {
      sentAt,
      createdAt,
      early: this.early.get(loadId) ?? [],
      received: 0,
    };
    this.early.delete(loadId);
    this.loads.set(loadId, load);
    for (const at of load.early) this.record(load, at);
  }

  heard(payload: { id: string }, at: number) {
    const load = this.loads.get(payload.id);
    if (load) return this.record(load, at);
    const waiting = this.early.get(payload.id);
    if (waiting) waiting.push(at);
    else this.early.set(payload.id, [at]);
  }

  private record(load: PostedLoad, at: number) {
    load.received++;
    this.afterCreated.add(at, at - load.createdAt!);
    this.afterSent.add(at, at - load.sentAt);
  }

  delivery(): { received: number; expected: number } {
    let received = 0;
    for (const load of this.loads.values()) received += load.received;
    // Pushes for loads whose 201 never came (timed out) are not matched.
    this.unmatched = [...this.early.values()].reduce((sum, list) => sum + list.length, 0);
    return { received, expected: this.loads.size * this.dispatchers };
  }
}

export type Browsers = {
  sockets: Socket[];
  /** Sockets the server closed during the run. */
  disconnects: number;
  /** Connections or watches that failed while opening and were tried again, with the first reason. */
  retries: number;
  firstRetryReason: string | null;
  close(): void;
};

const ATTEMPTS = 3;

function connect(baseUrl: string, token: string): Promise<Socket> {
  const socket = io(baseUrl, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 20_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

/**
 * `watchers` sockets spread over the tours (round robin), alternately the shipper's and the
 * carrier's user, each watching its tour; `dispatchers` carrier sockets on the marketplace.
 */
export async function openBrowsers(
  baseUrl: string,
  tours: Tour[],
  carriers: { token: string }[],
  counts: { watchers: number; dispatchers: number },
): Promise<{ browsers: Browsers; positionPushes: PositionPushes; loadPushes: LoadPushes }> {
  const watchersOf = new Map<string, number>();
  for (let index = 0; index < counts.watchers; index++) {
    const tourId = tours[index % tours.length].tourId;
    watchersOf.set(tourId, (watchersOf.get(tourId) ?? 0) + 1);
  }
  const positionPushes = new PositionPushes(watchersOf);
  const loadPushes = new LoadPushes(counts.dispatchers);
  const browsers: Browsers = {
    sockets: [],
    disconnects: 0,
    retries: 0,
    firstRetryReason: null,
    close: () => {
      for (const socket of browsers.sockets) socket.disconnect();
    },
  };
  /** Opens a socket and readies it; one the server closes or refuses meanwhile is opened again. */
  const open = async (token: string, ready: (socket: Socket) => Promise<void>) => {
    for (let attempt = 1; ; attempt++) {
      let socket: Socket | null = null;
      try {
        socket = await connect(baseUrl, token);
        await ready(socket);
        browsers.sockets.push(socket);
        socket.on('disconnect', (reason) => {
          if (reason !== 'io client disconnect') browsers.disconnects++;
        });
        return;
      } catch (error) {
        socket?.disconnect();
        if (attempt >= ATTEMPTS) throw error;
        browsers.retries++;
        browsers.firstRetryReason ??= (error as Error).message;
      }
    }
  };
  await inPool(
    Array.from({ length: counts.watchers }, (_, index) => index),
    25,
    (index) => {
      const tour = tours[index % tours.length];
      return open(
        (Math.floor(index / tours.length) % 2 === 0 ? tour.shipper : tour.carrier).token,
        async (socket) => {
          socket.on('tour:position', (payload: { tourId: string; recordedAt: string }) =>
            positionPushes.heard(payload, performance.now()),
          );
          const ack = await socket
            .timeout(20_000)
            .emitWithAck('tour:watch', { tourId: tour.tourId });
          if (!ack?.ok) throw new Error(`tour:watch ${tour.tourId}: ${JSON.stringify(ack)}`);
        },
      );
    },
  );
  await inPool(
    Array.from({ length: counts.dispatchers }, (_, index) => index),
    25,
    (index) =>
      open(carriers[index % carriers.length].token, async (socket) => {
        socket.on('load:posted', (payload: { id: string }) =>
          loadPushes.heard(payload, performance.now()),
        );
      }),
  );
  return { browsers, positionPushes, loadPushes };
}
