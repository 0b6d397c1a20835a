import {
  livenessContract,
  readinessContract,
  type Liveness,
  type Readiness,
} from '../../domain/contracts/health.contract.ts';
import { comparePositions } from '../eventstore/eventStore.ts';
import { lockHeld } from '../../projections/runnerStatus.ts';
import type { App } from '../http/routeContext.ts';
import type { Platform } from '../platform.ts';
import type { Lifecycle } from '../cluster/lifecycle.ts';

/** A read model this close to the head of the log (events) counts as caught up. */
const CAUGHT_UP_LAG = 200;

/**
 * `GET /api/health/live` and `GET /api/health/ready` (docs/api.md "Health"): what a load balancer
 * asks. `GET /api/health` stays the detailed view.
 */
export async function healthRoutes(app: App) {
  const started = Date.now();
  const readiness = createReadiness(app.platform);

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['platform'],
        summary: 'The process answers (liveness)',
        ...livenessContract,
      },
      config: { public: true, rateLimit: false },
    },
    async (): Promise<Liveness> => ({
      status: 'live',
      uptimeSeconds: Math.floor((Date.now() - started) / 1000),
    }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['platform'],
        summary: 'The process takes traffic (readiness): 503 while it starts, catches up or drains',
        ...readinessContract,
      },
      config: { public: true, rateLimit: false },
    },
    async (_request, reply): Promise<Readiness> => {
      const answer = await readiness();
      reply.code(answer.status === 'ready' ? 200 : 503).header('cache-control', 'no-store');
      return answer;
    },
  );
}

/**
 * Readiness of this process; callers within a quarter second share one reading. A read model counts
 * once it has been caught up here (it then stays counted: a busy log is never exactly at the head),
 * or while another live process holds it, or, for a moment, while nobody does and this process is
 * about to claim it (its holder just stopped).
 */
export function createReadiness(platform: Platform): () => Promise<Readiness> {
  const caughtUp = new Set<string>();
  let cached: { at: number; answer: Promise<Readiness> } | null = null;

  const read = async (): Promise<Readiness> => {
    const { store, runner, database, lifecycle, config } = platform;
    const draining = (): Readiness => ({
      status: 'draining',
      reasons: [
        `draining since ${lifecycle.drainingSince}: the process was asked to stop and takes no new work`,
      ],
      checks: { migrations: 'ok', eventStore: 'ok', readModels: 'unknown' },
      drainingSince: lifecycle.drainingSince,
    });
    if (lifecycle.phase === 'draining') return draining();
    let head;
    let models;
    try {
      [head, models] = await Promise.all([store.head(), runner.status()]);
    } catch (error) {
      return {
        status: 'unavailable',
        reasons: [
          `the event store or the database does not answer: ${error instanceof Error ? error.message : String(error)}`,
        ],
        checks: { migrations: 'ok', eventStore: 'unavailable', readModels: 'unknown' },
        drainingSince: null,
      };
    }
    const reasons: string[] = [];
    for (const model of models) {
      if (caughtUp.has(model.projection)) continue;
      if (model.running) {
        const lag =
          store.kind === 'esdb'
            ? comparePositions(model.position, head) >= 0
              ? 0
              : (await store.readAll({ from: model.position, limit: CAUGHT_UP_LAG + 1 })).length
            : Math.max(
                0,
                Number(BigInt(head.globalPosition) - BigInt(model.position.globalPosition)),
              );
        if (lag <= CAUGHT_UP_LAG) caughtUp.add(model.projection);
        else reasons.push(`read model ${model.projection} is catching up: ${lag} events behind`);
        continue;
      }
      if (database.kind === 'pglite') {
        reasons.push(`read model ${model.projection} is not running`);
        continue;
      }
      const heldElsewhere = await lockHeld(database.background, model.projection);
      if (!heldElsewhere && !config.runProjections)
        reasons.push(
          `read model ${model.projection} is run by no process (RUN_PROJECTIONS is off here)`,
        );
    }
    // The answer may have waited on the database: a drain begun meanwhile wins.
    if ((lifecycle.phase as Lifecycle['phase']) === 'draining') return draining();
    return {
      status: reasons.length ? 'starting' : 'ready',
      reasons,
      checks: {
        migrations: 'ok',
        eventStore: 'ok',
        readModels: reasons.length ? 'catching-up' : 'ok',
      },
      drainingSince: null,
    };
  };

  return () => {
    if (platform.lifecycle.phase === 'draining') cached = null;
    if (cached && Date.now() - cached.at < 250) return cached.answer;
    const answer = read();
    cached = { at: Date.now(), answer };
    return answer;
  };
}
