/**
 * What bounds an organization's webhooks: at most ten endpoints (the eleventh a 409 naming the
 * limit, also when several are added at once), one replay per endpoint at a time (a second, or two
 * at once, 409 while its deliveries wait), and a replay never queues again an event still waiting
 * for that endpoint. Real local receivers (WEBHOOK_ALLOW_PRIVATE), on PGlite or PostgreSQL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { bearer, organization } from '../identity/fixtures.ts';
import { postLoad, waitUntil } from '../realtime/testing.ts';
import { startTestApp } from '../testing/testApp.ts';
import { defaultWebhookSettings } from './settings.ts';

const LIMIT_MESSAGE = 'An organization keeps at most 10 webhooks: delete one first';
const RUNNING_MESSAGE =
  'A replay of this webhook is still queued: try again once its deliveries are delivered or failed';

/** A receiver on a loopback port answering `status.code`, keeping the event id of every request. */
async function receiver(status = { code: 200 }) {
  const received: { id: string; status: number }[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), status: status.code });
      response.writeHead(status.code).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { received, url, status };
}

const { app, platform, close } = await startTestApp({
  webhooks: {
    ...defaultWebhookSettings(true),
    firstDelayMs: 40,
    maxDelayMs: 150,
    pollMs: 30,
    timeoutMs: 1500,
  },
});
t.teardown(close);
const call = async (method: string, url: string, token: string | null, body?: unknown) => {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: token ? bearer(token) : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, json: response.body ? response.json() : null };
};
const shipper = await organization(app, platform, 'Shipper');
const other = await organization(app, platform, 'Shipper');
const add = (token: string, url: string) =>
  call('POST', '/api/webhooks', token, { url, events: ['load.posted'] });
const replay = (id: string, from: string) =>
  call('POST', `/api/webhooks/${id}/replay`, shipper.token, { from });
const deliveries = async (id: string) =>
  (await call('GET', `/api/webhooks/${id}/deliveries?pageSize=100`, shipper.token)).json.data as {
    eventId: string;
    status: string;
  }[];
/** Posts `count` loads and waits until the reactor has queued them. */
const postLoads = async (count: number) => {
  for (let index = 0; index < count; index++) await postLoad(call, shipper.token);
  await platform.webhooks.waitFor(await platform.store.head(), 10_000);
};
const removeAll = async (token: string) => {
  for (const hook of (await call('GET', '/api/webhooks', token)).json)
    await call('DELETE', `/api/webhooks/${hook.id}`, token);
};

t.test(
  'an organization keeps at most 10 endpoints: the 11th is a 409 naming the limit',
  async (t) => {
    const hook = await receiver();
    const ids: string[] = [];
    for (let index = 0; index < 10; index++) {
      const answer = await add(shipper.token, hook.url);
      t.equal(answer.status, 201, `endpoint ${index + 1}`);
      ids.push(answer.json.id);
    }
    const eleventh = await add(shipper.token, hook.url);
    t.equal(eleventh.status, 409, 'the 11th');
    t.match(eleventh.json, { message: LIMIT_MESSAGE, code: 'webhook_limit' });
    t.equal((await call('GET', '/api/webhooks', shipper.token)).json.length, 10, 'still ten');
    t.equal((await add(other.token, hook.url)).status, 201, 'another organization has its own ten');

    // Room for two, three asked at once (on PostgreSQL, from separate connections): two pass.
    for (const id of ids.slice(0, 2))
      t.equal((await call('DELETE', `/api/webhooks/${id}`, shipper.token)).status, 204);
    const together = await Promise.all([0, 1, 2].map(() => add(shipper.token, hook.url)));
    t.same(
      together.map((answer) => answer.status).sort(),
      [201, 201, 409],
      'two of three added at once',
    );
    t.equal(
      (await call('GET', '/api/webhooks', shipper.token)).json.length,
      10,
      'never more than ten',
    );
    await removeAll(shipper.token);
    await removeAll(other.token);
  },
);

t.test(
  'one replay per endpoint at a time: a second while its deliveries wait is a 409',
  async (t) => {
    const hook = await receiver();
    const created = await add(shipper.token, hook.url);
    const { id } = created.json;
    const from = new Date().toISOString();
    await postLoads(3);
    await waitUntil(
      () => hook.received.filter((entry) => entry.status === 200).length >= 3,
      10_000,
      'the three delivered',
    );

    hook.status.code = 500;
    const first = await replay(id, from);
    t.equal(first.status, 202);
    t.same(first.json, { queued: 3 }, 'the three delivered events queued again');
    const second = await replay(id, from);
    t.equal(second.status, 409, 'a second replay while the first waits');
    t.match(second.json, { message: RUNNING_MESSAGE, code: 'webhook_replay_running' });
    t.equal((await deliveries(id)).length, 6, 'nothing queued by the refused replay');

    hook.status.code = 200;
    await waitUntil(
      () => hook.received.filter((entry) => entry.status === 200).length >= 6,
      10_000,
      'the replay delivered',
    );
    // The receiver hears a delivery before the sender records it: wait for the table too.
    const deadline = Date.now() + 10_000;
    while ((await deliveries(id)).some((row) => row.status === 'retrying') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await replay(id, from);
    t.equal(again.status, 202, 'once the replay is delivered, another may start');
    t.same(again.json, { queued: 3 });
    t.same(
      hook.received
        .filter((entry) => entry.status === 200)
        .slice(3, 6)
        .map((entry) => entry.id),
      hook.received.slice(0, 3).map((entry) => entry.id),
      'the same event ids, in order',
    );
    await removeAll(shipper.token);
  },
);

t.test('two replays at once: one is queued, the other answers 409', async (t) => {
  const hook = await receiver();
  const { id } = (await add(shipper.token, hook.url)).json;
  const from = new Date().toISOString();
  await postLoads(2);
  await waitUntil(
    () => hook.received.filter((entry) => entry.status === 200).length >= 2,
    10_000,
    'the two delivered',
  );
  hook.status.code = 500;
  const answers = await Promise.all([replay(id, from), replay(id, from)]);
  t.same(answers.map((answer) => answer.status).sort(), [202, 409]);
  t.same(answers.find((answer) => answer.status === 202)!.json, { queued: 2 });
  t.equal((await deliveries(id)).length, 4, 'the events queued once more, not twice');
  await removeAll(shipper.token);
});

t.test('a replay does not queue again an event still waiting for that endpoint', async (t) => {
  const hook = await receiver();
  const { id } = (await add(shipper.token, hook.url)).json;
  const from = new Date().toISOString();
  await postLoads(1);
  await waitUntil(
    () => hook.received.some((entry) => entry.status === 200),
    10_000,
    'the first delivered',
  );
  hook.status.code = 500;
  await postLoads(2);
  await waitUntil(
    () => hook.received.some((entry) => entry.status === 500),
    10_000,
    'a failed attempt',
  );
  const answer = await replay(id, from);
  t.equal(answer.status, 202);
  t.same(answer.json, { queued: 1 }, 'only the delivered one: the two others still wait');
  const rows = await deliveries(id);
  t.equal(rows.length, 4);
  const waiting = rows.filter((row) => row.status === 'retrying');
  t.equal(new Set(waiting.map((row) => row.eventId)).size, waiting.length, 'no event waits twice');
  t.equal(
    rows.filter((row) => row.status === 'delivered').length,
    1,
    'the first delivery, delivered',
  );
  await removeAll(shipper.token);
});
