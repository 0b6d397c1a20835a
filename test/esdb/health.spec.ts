import t from 'tap';
import { randomUUID } from 'node:crypto';
import { meta } from '../../server/eventstore/eventStore.contract.ts';
import { startTestApp } from '../../server/testing/testApp.ts';
import { startTestEventStoreServer } from './server.ts';

/**
 * /api/health on EventStoreDB: the event store's errors are shown (and the server answers again once
 * it is back), and each read model's lag counts events, not positions in EventStoreDB's log.
 * A test server of its own, since it is stopped and started.
 */
const server = await startTestEventStoreServer();
t.teardown(() => server.close());
const { app, platform, close } = await startTestApp({ eventstoreUrl: server.url });
t.teardown(close);

type Health = {
  status: string;
  eventStore: { kind: string; status: string; lastError: { message: string; at: string } | null };
  readModels: { projection: string; lag: number }[];
};
const health = async () => {
  // Callers within a quarter second share one reading.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const response = await app.inject({ method: 'GET', url: '/api/health' });
  return { code: response.statusCode, body: response.json() as Health };
};
const until = async (done: (answer: { code: number; body: Health }) => boolean, ms = 20_000) => {
  let answer = await health();
  for (const deadline = Date.now() + ms; !done(answer) && Date.now() < deadline; )
    answer = await health();
  return answer;
};

await t.test('healthy on EventStoreDB, no error yet', async (t) => {
  const answer = await until(({ body }) => body.status === 'ok');
  t.equal(answer.code, 200);
  t.equal(answer.body.eventStore.kind, 'esdb');
  t.equal(answer.body.eventStore.lastError, null);
  t.ok(
    answer.body.readModels.length > 0 && answer.body.readModels.every((model) => model.lag === 0),
    'every read model caught up',
  );
});

await t.test(
  'a lost EventStoreDB is unavailable with its error; back again, the error stays on show',
  async (t) => {
    await server.stop();
    const down = await until(
      ({ code, body }) => code === 503 && body.eventStore.lastError !== null,
    );
    t.equal(down.code, 503);
    t.equal(down.body.eventStore.status, 'unavailable');
    t.ok(
      down.body.eventStore.lastError?.message,
      `the last error: ${down.body.eventStore.lastError?.message}`,
    );
    await server.start();
    const back = await until(({ code, body }) => code === 200 && body.status === 'ok');
    t.equal(back.code, 200, 'answers again once the server is back');
    t.equal(back.body.status, 'ok', 'read models caught up again');
    t.ok(back.body.eventStore.lastError?.at, 'the last error, with its time');
  },
);

await t.test('lag counts events', async (t) => {
  await platform.runner.stop();
  // Three events in two appends: the positions move by far more than three.
  await platform.store.append(
    `probe-${randomUUID()}`,
    [
      { type: 'ProbeRecorded', data: { n: 1 } },
      { type: 'ProbeRecorded', data: { n: 2 } },
    ],
    { expectedRevision: 'no_stream', metadata: meta() },
  );
  await platform.store.append(
    `probe-${randomUUID()}`,
    [{ type: 'ProbeRecorded', data: { n: 3 } }],
    { expectedRevision: 'no_stream', metadata: meta() },
  );
  const { body } = await health();
  t.equal(body.status, 'catching-up');
  t.same(
    [...new Set(body.readModels.map((model) => model.lag))],
    [3],
    'every read model is three events behind',
  );
});
