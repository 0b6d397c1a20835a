import { buildCatalog } from '../../domain/catalog.ts';
import {
  catalogContract,
  clientSettingsContract,
  healthContract,
  type CatalogAnswer,
  type ClientSettings,
  type Health,
} from '../../domain/contracts/platform.contract.ts';
import type { App } from '../http/routeContext.ts';
import { comparePositions, type LogPosition } from '../eventstore/eventStore.ts';

/** Health counts at most this many events of a read model's lag on EventStoreDB (beyond it, "at least"). */
const LAG_COUNTED = 10_000;

/** Health, the catalogue and the client's settings: open to everyone, no tenant data. */
export async function platformRoutes(app: App) {
  /**
   * Load balancers and monitors call health often: callers within a quarter second share one
   * reading of the log head and the checkpoints instead of each querying them.
   */
  type Reading = { at: number; answer: Promise<Health>; body: string | null };
  let cached: Reading | null = null;
  const health = (): Reading => {
    if (cached && Date.now() - cached.at < 250) return cached;
    cached = { at: Date.now(), answer: readHealth(), body: null };
    return cached;
  };
  const readHealth = async (): Promise<Health> => {
    const { store, runner } = app.platform;
    try {
      const [head, projections, parked] = await Promise.all([
        store.head(),
        runner.status(),
        runner.parkedCounts(),
      ]);
      // Events behind the head: PostgreSQL's global positions count events; EventStoreDB's are offsets
      // in its log, so there the events after each checkpoint are counted, in one read from the
      // oldest checkpoint (up to LAG_COUNTED events).
      const lags =
        store.kind === 'esdb'
          ? await countAfter(projections.map(({ position }) => position))
          : projections.map(({ position }) =>
              Math.max(0, Number(BigInt(head.globalPosition) - BigInt(position.globalPosition))),
            );
      const readModels = projections.map((projection, index) => ({
        ...projection,
        lag: lags[index],
        parked: parked.get(projection.projection) ?? 0,
      }));
      const status: 'ok' | 'catching-up' | 'degraded' = readModels.some((model) => model.parked > 0)
        ? 'degraded'
        : readModels.every((model) => model.lag === 0)
          ? 'ok'
          : 'catching-up';
      return {
        status,
        eventStore: {
          kind: store.kind,
          status: 'ok' as const,
          head,
          lastError: app.platform.eventStoreError(),
        },
        readModels,
      };
    } catch (error) {
      app.log.error({ err: error }, 'health check failed');
      cached = null;
      return {
        status: 'unavailable',
        eventStore: {
          kind: store.kind,
          status: 'unavailable',
          head: null,
          lastError: app.platform.eventStoreError(),
        },
        readModels: [],
      };
    }
  };

  const countAfter = async (positions: LogPosition[]): Promise<number[]> => {
    if (positions.length === 0) return [];
    const oldest = positions.reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b));
    const events = await app.platform.store.readAll({ from: oldest, limit: LAG_COUNTED });
    return positions.map(
      (position) => events.filter((event) => comparePositions(event.position, position) > 0).length,
    );
  };

  app.get(
    '/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Event store and read-model status',
        ...healthContract,
      },
      config: { public: true, rateLimit: false },
    },
    async (_request, reply) => {
      const reading = health();
      const answer = await reading.answer;
      reply.code(answer.status === 'unavailable' ? 503 : 200);
      // Serialized once per reading by the route's own serializer (the contract's), then sent as is.
      reading.body ??= String(reply.serialize(answer));
      // A JSON string is sent as it is: the type provider only knows the answer's object type.
      return reply.type('application/json; charset=utf-8').send(reading.body as unknown as Health);
    },
  );

  app.get(
    '/catalog',
    {
      schema: {
        tags: ['platform'],
        summary:
          'Every enumeration of the product: types, statuses with chip colours, time zones, criteria, permissions',
        ...catalogContract,
      },
      config: { public: true },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      // The catalogue's lists are read-only constants; the serializer checks them against the contract.
      return buildCatalog(new Date().toISOString()) as unknown as CatalogAnswer;
    },
  );

  app.get(
    '/client-settings',
    {
      schema: {
        tags: ['platform'],
        summary:
          "What the browser needs of the server's configuration: the map tiles (MAP_TILE_URL) and their attribution",
        ...clientSettingsContract,
      },
      config: { public: true },
    },
    async (_request, reply): Promise<ClientSettings> => {
      const { mapTileUrl, mapAttribution } = app.platform.config;
      reply.header('cache-control', 'no-cache');
      return { map: { tileUrl: mapTileUrl, attribution: mapTileUrl ? mapAttribution : null } };
    },
  );
}
