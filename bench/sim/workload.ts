/**
 * The open-loop workload: requests fired on a fixed schedule whatever the server answers, so a slow
 * server shows as latency and requests in flight, never as a lower offered rate. Also the sampler
 * of GET /api/health (projection lag) once a second.
 */
import { loadBody } from '../../server/testing/loadBodies.ts';
import type { Account, Answer, Api, Tour } from './setup.ts';
import type { LoadPushes, PositionPushes } from './sockets.ts';
import { Samples } from './stats.ts';

/** One kind of request: what was offered and what the server accepted, in units (positions, loads, offers). */
export class Kind {
  /** Units fired, stamped when fired. */
  readonly offered = new Samples();
  /** Units the server accepted, stamped at the 2xx answer. */
  readonly accepted = new Samples();
  /** Latency of 2xx answers (fired to body read), ms, stamped at the answer. */
  readonly latency = new Samples();
  /** Status of the other answers (0: no answer, a network error), stamped when it came. */
  readonly failed = new Samples();
  /** Answers by status code over the whole run. */
  readonly statuses = new Map<number, number>();
  /** The first answer of each failing status, to say why. */
  readonly firstFailure = new Map<number, string>();
  inFlight = 0;

  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  /** Fires `call` now; `acceptedUnits` reads how many units a 2xx answer accepted. */
  async request(
    units: number,
    call: () => Promise<Answer>,
    acceptedUnits: (answer: Answer, at: number) => number = () => units,
  ): Promise<void> {
    const start = performance.now();
    this.offered.add(start, units);
    this.inFlight++;
    try {
      const answer = await call();
      const end = performance.now();
      this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 200 && answer.status < 300) {
        this.accepted.add(end, acceptedUnits(answer, end));
        this.latency.add(end, end - start);
      } else {
        this.failed.add(end, answer.status);
        if (!this.firstFailure.has(answer.status))
          this.firstFailure.set(answer.status, JSON.stringify(answer.json).slice(0, 200));
      }
    } catch (error) {
      this.statuses.set(0, (this.statuses.get(0) ?? 0) + 1);
      this.failed.add(performance.now(), 0);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (!this.firstFailure.has(0))
        this.firstFailure.set(
          0,
          `${String(error)}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''} after ${Math.round(performance.now() - start)} ms`,
        );
    } finally {
      this.inFlight--;
    }
  }
}

export type Rates = {
  /** Position POSTs per second (each tour's driver in turn) and positions in each. */
  batchesPerSecond: number;
  positionsPerBatch: number;
  loadsPerSecond: number;
  offersPerSecond: number;
};

type Stream = { perSecond: number; fired: number; fire: (index: number) => void };

/**
 * Fires every stream's requests when due, from `startAt` until `endAt`: a request whose time has
 * come is fired at once even if the ones before it are unanswered (open loop).
 */
function schedule(streams: Stream[], startAt: number, endAt: number): () => void {
  const tick = () => {
    const now = performance.now();
    for (const stream of streams) {
      for (;;) {
        const due = startAt + (stream.fired * 1000) / stream.perSecond;
        if (due > now || due >= endAt) break;
        stream.fire(stream.fired++);
      }
    }
  };
  tick();
  const timer = setInterval(tick, 5);
  return () => clearInterval(timer);
}

/** Somewhere on I-65 in Indiana, far from every stop, so positions cause no arrival: they go to the watchers only. */
const positionNear = (recordedAt: string) => ({
  latitude: 40.9 + (Math.random() - 0.5) / 10,
  longitude: -86.9 + (Math.random() - 0.5) / 10,
  speed: 55,
  heading: 140,
  recordedAt,
});

/** How many of the most recent loads carriers make offers on. */
export const RECENT_LOADS = 30;

export type Run = {
  kinds: { positions: Kind; loads: Kind; offers: Kind };
  /** Offers answered 200 (a revision of the carrier's earlier offer on that load) rather than 201. */
  revisions(): number;
  /** Offers due before any load of the run was posted (nothing to offer on): not fired. */
  offersWithoutLoad(): number;
  stop(): void;
};

export function startRun(
  api: Api,
  market: { tours: Tour[]; shippers: Account[]; carriers: Account[] },
  rates: Rates,
  pushes: { positions: PositionPushes; loads: LoadPushes },
  startAt: number,
  endAt: number,
): Run {
  const kinds = {
    positions: new Kind('positions'),
    loads: new Kind('loads'),
    offers: new Kind('offers'),
  };
  const postedLoads: string[] = [];
  let revisions = 0;
  let offersWithoutLoad = 0;

  const firePositions = (index: number) => {
    const tour = market.tours[index % market.tours.length];
    const wall = Date.now();
    // One ping from each of the tour's trucks due in this period, 10 ms apart (recordedAt keys the push).
    const batch = Array.from({ length: rates.positionsPerBatch }, (_, slot) =>
      positionNear(new Date(wall - (rates.positionsPerBatch - 1 - slot) * 10).toISOString()),
    );
    const at = performance.now();
    for (const position of batch) pushes.positions.sending(tour.tourId, position.recordedAt, at);
    void kinds.positions.request(
      batch.length,
      () => api('POST', `/tours/${tour.tourId}/positions`, tour.driver.token, batch),
      (answer, answeredAt) => {
        for (const position of batch)
          pushes.positions.accepted(tour.tourId, position.recordedAt, answeredAt);
        return Number(answer.json?.accepted ?? 0);
      },
    );
  };

  const fireLoad = (index: number) => {
    const shipper = market.shippers[index % market.shippers.length];
    const sentAt = performance.now();
    void kinds.loads.request(
      1,
      () => api('POST', '/loads', shipper.token, loadBody({ refNumber: `SIM-${index}` })),
      (answer, answeredAt) => {
        pushes.loads.created(answer.json.id, sentAt, answeredAt);
        postedLoads.push(answer.json.id);
        return 1;
      },
    );
  };

  const fireOffer = () => {
    if (postedLoads.length === 0) {
      offersWithoutLoad++;
      return;
    }
    const recent = postedLoads.slice(-RECENT_LOADS);
    const loadId = recent[Math.floor(Math.random() * recent.length)];
    const carrier = market.carriers[Math.floor(Math.random() * market.carriers.length)];
    // Whole dollars: the server refuses some valid cent amounts (its 2-decimal check multiplies floats).
    const price = 1000 + Math.floor(Math.random() * 2000);
    void kinds.offers.request(
      1,
      () =>
        api('POST', `/proposal/${loadId}`, carrier.token, {
          price,
          message: 'Can pick up on time',
        }),
      (answer) => {
        if (answer.status === 200) revisions++;
        return 1;
      },
    );
  };

  const stop = schedule(
    [
      { perSecond: rates.batchesPerSecond, fired: 0, fire: firePositions },
      { perSecond: rates.loadsPerSecond, fired: 0, fire: fireLoad },
      { perSecond: rates.offersPerSecond, fired: 0, fire: fireOffer },
    ],
    startAt,
    endAt,
  );
  return { kinds, revisions: () => revisions, offersWithoutLoad: () => offersWithoutLoad, stop };
}

type Health = { readModels?: { projection: string; lag: number }[] };

/** GET /api/health once a second: the largest read-model lag (events behind the head of the log). */
export class HealthLog {
  /** Largest lag over the read models, stamped when the answer came. */
  readonly lag = new Samples();
  /** The largest lag seen per projection. */
  readonly worst = new Map<string, number>();
  /** Seconds whose sample was not taken because the previous one was still unanswered. */
  skipped = 0;
  failed = 0;
  private busy = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  private readonly api: Api;

  constructor(api: Api) {
    this.api = api;
  }

  start() {
    this.timer = setInterval(() => void this.sample(), 1000);
    void this.sample();
  }

  /** Stops sampling; an answer still on its way is not recorded. */
  stop() {
    if (this.timer) clearInterval(this.timer);
    this.stopped = true;
  }

  /** Each read model's lag now, or null when health did not answer. */
  private async readModels(): Promise<{ projection: string; lag: number }[] | null> {
    const { status, json } = await this.api('GET', '/health', null);
    return status === 200 ? ((json as Health).readModels ?? []) : null;
  }

  /** The current largest lag, or null when health did not answer. */
  async read(): Promise<number | null> {
    const models = await this.readModels();
    return models === null ? null : Math.max(0, ...models.map((model) => model.lag));
  }

  private async sample() {
    if (this.busy) {
      this.skipped++;
      return;
    }
    this.busy = true;
    try {
      const models = await this.readModels();
      if (this.stopped) return;
      if (models === null) {
        this.failed++;
        return;
      }
      for (const model of models)
        this.worst.set(
          model.projection,
          Math.max(this.worst.get(model.projection) ?? 0, model.lag),
        );
      this.lag.add(performance.now(), Math.max(0, ...models.map((model) => model.lag)));
    } catch {
      this.failed++;
    } finally {
      this.busy = false;
    }
  }
}
