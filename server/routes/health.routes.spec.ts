// @postgres: readiness read from the runner's checkpoints
/**
 * GET /api/health/live and /api/health/ready: ready answers 503 while the process starts (its read
 * models not caught up, nobody running them), 200 once they are, and 503 again from the first
 * instant of a drain (SIGTERM), with a body saying why. The SIGTERM of a real process (locks moving
 * to another within 2 s, exit 0) is in test/reliability/cluster.spec.ts.
 */
import t from 'tap';
import pg from 'pg';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp({ runProjections: false });
t.teardown(close);

const ready = async () => {
  const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
  return {
    status: response.statusCode,
    body: response.json() as {
      status: string;
      reasons: string[];
      checks: Record<string, string>;
      drainingSince: string | null;
    },
  };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('live answers whenever the process does', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/api/health/live' });
  t.equal(response.statusCode, 200);
  t.match(response.json(), { status: 'live', uptimeSeconds: Number });
});

t.test(
  'ready: 503 while starting, 200 once the read models run and caught up, 503 while draining',
  async (t) => {
    // On PostgreSQL, another database on the same server (another site, another test file) may hold
    // advisory locks with the same keys: those run someone else's read models, not this one's.
    const elsewhere = process.env.DATABASE_URL
      ? new pg.Client({ connectionString: process.env.DATABASE_URL })
      : null;
    if (elsewhere) {
      await elsewhere.connect();
      const names = (await platform.runner.status()).map((model) => model.projection);
      for (const name of names)
        await elsewhere.query('SELECT pg_advisory_lock(hashtext($1))', [`projection:${name}`]);
      t.teardown(() => elsewhere.end());
    }
    const starting = await ready();
    t.equal(starting.status, 503, 'the read models run nowhere yet');
    t.equal(starting.body.status, 'starting');
    t.match(starting.body.checks, {
      migrations: 'ok',
      eventStore: 'ok',
      readModels: 'catching-up',
    });
    t.match(
      starting.body.reasons.join('\n'),
      /read model \w+ is (not running|run by no process)/,
      'and says which read model',
    );

    await platform.runner.start();
    let answer = await ready();
    for (let i = 0; i < 40 && answer.status !== 200; i += 1) {
      await sleep(250);
      answer = await ready();
    }
    t.equal(
      answer.status,
      200,
      'ready once this process runs the read models and they are caught up',
    );
    t.same(answer.body, {
      status: 'ready',
      reasons: [],
      checks: { migrations: 'ok', eventStore: 'ok', readModels: 'ok' },
      drainingSince: null,
    });
    t.equal(
      (await app.inject({ method: 'GET', url: '/api/health' })).statusCode,
      200,
      'the detailed view stays',
    );

    platform.lifecycle.drain();
    const draining = await ready();
    t.equal(draining.status, 503, 'at once when the drain begins');
    t.equal(draining.body.status, 'draining');
    t.match(draining.body.reasons[0], /draining since .*asked to stop/);
    t.type(draining.body.drainingSince, 'string');
    t.equal(
      (await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode,
      200,
      'still live while it drains',
    );
  },
);
