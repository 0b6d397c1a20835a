/**
 * The operators' figures, in Prometheus' text format at `GET /metrics` (metricsRoute.ts): request
 * durations by route pattern and status, events appended by this process, each read model's lag and
 * parked events, open sockets, and webhook deliveries by status.
 *
 * Each platform has its own registry (never prom-client's global one), so several apps in one process
 * (the tests) keep their own counts.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Kysely } from 'kysely';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { countEvents } from '../../projections/runnerStatus.ts';
import type { DB } from '../../storage/schema.ts';

/** A webhook delivery's status as `GET webhooks/{id}/deliveries` shows it. */
export type WebhookDeliveryStatus = 'delivered' | 'retrying' | 'failed';

/** One read model at scrape time: events between its checkpoint and the head of the log, and events it set aside. */
export type ProjectionReading = { projection: string; lag: number; parked: number };

/** Where the gauges read their values, at each scrape. */
export type MetricsSources = {
  projections(): Promise<ProjectionReading[]>;
  socketConnections(): number;
  /** A source failed: its series are left out of this scrape, the others still answer. */
  onError(error: unknown): void;
};

export type Metrics = {
  readonly registry: Registry;
  /** One answered HTTP request: `route` is the route's pattern (`/api/loads/:id`), never the raw URL. */
  requestAnswered(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** Events written to the log by this process (counted by {@link countingAppends}). */
  eventsAppended(count: number): void;
  /** One webhook delivery attempt that ended with `status` (called by the webhook sender). */
  webhookDelivered(status: WebhookDeliveryStatus): void;
  /** Connects the gauges to the running platform; until then they have no samples. */
  readFrom(sources: MetricsSources): void;
  /** The registry's text, for the scrape. */
  scrape(): Promise<string>;
  readonly contentType: string;
};

export function createMetrics(): Metrics {
  const registry = new Registry();
  let sources: MetricsSources | null = null;

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const appended = new Counter({
    name: 'events_appended_total',
    help: 'Events this process appended to the event log',
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by the status they ended in',
    labelNames: ['status'] as const,
    registers: [registry],
  });

  // Lag and parked counts come from one reading, shared by both gauges and by every scrape that
  // arrives while it is under way: however many scrapers, one SQL count per read model at a time.
  let reading: Promise<ProjectionReading[] | null> | null = null;
  const readProjections = () => {
    if (!sources) return Promise.resolve(null);
    if (reading) return reading;
    const from = sources;
    reading = from
      .projections()
      .catch((error: unknown) => {
        from.onError(error);
        return null;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const projectionGauge = (
    name: string,
    help: string,
    pick: (projection: ProjectionReading) => number,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ['projection'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const projection of (await readProjections()) ?? [])
          this.set({ projection: projection.projection }, pick(projection));
      },
    });
  projectionGauge(
    'projection_lag_events',
    "Events between a read model's checkpoint and the head of the log",
    (projection) => projection.lag,
  );
  projectionGauge(
    'projection_parked_events',
    'Events a read model could not apply and set aside',
    (projection) => projection.parked,
  );
  new Gauge({
    name: 'socket_connections',
    help: 'socket.io connections open on this process',
    registers: [registry],
    collect() {
      this.set(sources?.socketConnections() ?? 0);
    },
  });

  return {
    registry,
    requestAnswered: ({ method, route, status }, seconds) =>
      requestDuration.observe({ method, route, status: String(status) }, seconds),
    eventsAppended: (count) => {
      if (count > 0) appended.inc(count);
    },
    webhookDelivered: (status) => webhookDeliveries.inc({ status }),
    readFrom: (given) => {
      sources = given;
      reading = null;
    },
    scrape: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

/**
 * The event store with every successful append counted: one place for PostgreSQL, PGlite and
 * EventStoreDB, whichever module appends.
 */
export function countingAppends(
  store: EventStore,
  metrics: Pick<Metrics, 'eventsAppended'>,
): EventStore {
  return {
    get kind() {
      return store.kind;
    },
    async append(streamId, events, options) {
      const result = await store.append(streamId, events, options);
      metrics.eventsAppended(events.length);
      return result;
    },
    readStream: (streamId) => store.readStream(streamId),
    readAll: (options) => store.readAll(options),
    subscribe: (options, handler) => store.subscribe(options, handler),
    head: () => store.head(),
    committedHead: () => store.committedHead(),
    close: () => store.close(),
  };
}

/** EventStoreDB's positions are offsets in its log, so its lag is counted by reading, up to this many events. */
const ESDB_LAG_COUNTED = 10_000;

/**
 * Each read model's lag in events and its parked events. In SQL the events after the checkpoint are
 * counted (global positions have gaps where a transaction rolled back); on EventStoreDB they are read.
 */
export async function readProjections(
  store: EventStore,
  runner: {
    status(): Promise<{ projection: string; position: LogPosition }[]>;
    parkedCounts(): Promise<Map<string, number>>;
  },
  db: Kysely<DB>,
): Promise<ProjectionReading[]> {
  const [head, projections, parked] = await Promise.all([
    store.head(),
    runner.status(),
    runner.parkedCounts(),
  ]);
  return Promise.all(
    projections.map(async ({ projection, position }) => ({
      projection,
      lag:
        store.kind === 'esdb'
          ? (await store.readAll({ from: position, limit: ESDB_LAG_COUNTED })).length
          : (await countEvents(db, position, head)).count,
      parked: parked.get(projection) ?? 0,
    })),
  );
}
