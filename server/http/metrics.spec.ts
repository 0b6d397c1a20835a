/**
 * GET /metrics after real traffic: request durations by route pattern, the events appended, each read
 * model's lag and parked events, open sockets and webhook deliveries; and METRICS_TOKEN's bearer.
 */
import t from 'tap';
import { allProjections } from '../../projections/index.ts';
import { organization } from '../identity/fixtures.ts';
import { connected, connectSocket, postLoad, startListeningApp } from '../realtime/testing.ts';
import { readableThrough } from '../testing/readableHead.ts';
import { startTestApp } from '../testing/testApp.ts';
import { createMetrics } from './metrics.ts';
import type { App } from './routeContext.ts';

t.setTimeout(300_000);

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of Prometheus' text format (`name{label="value",...} number`), comments left out. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(
          (label) => [label[1], label[2]],
        ),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

const scrape = async (app: App, headers: Record<string, string> = {}) => {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers });
  return {
    status: response.statusCode,
    type: String(response.headers['content-type']),
    text: response.body,
    samples: response.statusCode === 200 ? samples(response.body) : [],
  };
};
const find = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
const one = (all: Sample[], name: string, labels: Record<string, string> = {}) => {
  const found = find(all, name, labels);
  if (found.length !== 1)
    throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0].value;
};

/** Reads until `read` gives `expected` or five seconds pass; the last value read. */
async function settles(read: () => Promise<number>, expected: number): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (value === expected || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

t.test('after traffic, every series is there with its values', async (t) => {
  const { app, platform, baseUrl, http } = await startListeningApp(t);
  // Where the log stood before the traffic, and what the counter said then (the start may append).
  const appendedAtStart = one((await scrape(app)).samples, 'events_appended_total');
  const logAtStart = await platform.store.head();
  const shipper = await organization(app, platform, 'Shipper', { name: 'Metrics Shipping' });
  const load = await postLoad(http, shipper.token);
  t.equal((await http('GET', `/api/loads/${load.id}`, shipper.token)).status, 200, 'a load read');
  t.equal((await http('GET', '/api/catalog', null)).status, 200, 'the catalogue');
  t.equal((await http('GET', '/api/nowhere-at-all', null)).status, 404, 'an unknown path');

  const first = await scrape(app);
  t.equal(first.status, 200);
  t.match(first.type, /^text\/plain; version=0\.0\.4/, "Prometheus' text format");
  for (const name of [
    'http_request_duration_seconds',
    'events_appended_total',
    'projection_lag_events',
    'projection_parked_events',
    'socket_connections',
    'webhook_deliveries_total',
  ]) {
    t.match(
      first.text,
      new RegExp(`^# TYPE ${name} (histogram|counter|gauge)$`, 'm'),
      `${name} is declared`,
    );
  }

  const { samples: all } = first;
  // Route patterns, never raw URLs: a load's id never becomes a label.
  t.equal(
    one(all, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/loads/:id',
      status: '200',
    }),
    1,
    'the load read, by its route pattern',
  );
  t.equal(
    one(all, 'http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/api/loads/:id',
      status: '200',
      le: '+Inf',
    }),
    1,
    'in the +Inf bucket',
  );
  t.ok(
    one(all, 'http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/api/loads/:id',
      status: '200',
      le: '10',
    }) === 1,
    'answered within 10 seconds',
  );
  t.ok(
    one(all, 'http_request_duration_seconds_sum', {
      method: 'GET',
      route: '/api/loads/:id',
      status: '200',
    }) > 0,
    'with its time',
  );
  t.equal(
    one(all, 'http_request_duration_seconds_count', {
      method: 'POST',
      route: '/api/loads',
      status: '201',
    }),
    1,
    'the load posted',
  );
  t.equal(
    one(all, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/catalog',
      status: '200',
    }),
    1,
  );
  t.equal(
    one(all, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: 'unmatched',
      status: '404',
    }),
    1,
    'an unknown path under one label',
  );
  t.notOk(
    first.text.includes(load.id) || first.text.includes('nowhere-at-all'),
    'no raw URL in any label',
  );

  // Every event the log gained was appended by this process, through the one counting store.
  const appended = (await platform.store.readAll({ from: logAtStart, limit: 100_000 })).length;
  t.ok(appended > 0);
  t.equal(
    one(all, 'events_appended_total') - appendedAtStart,
    appended,
    `events_appended_total counts the ${appended} events the log gained`,
  );

  // One lag and one parked gauge per read model; once caught up, nothing behind and nothing parked.
  const names = allProjections.map((projection) => projection.name).sort();
  t.same(
    find(all, 'projection_lag_events')
      .map((sample) => sample.labels.projection)
      .sort(),
    names,
    'a lag gauge per read model',
  );
  t.same(
    find(all, 'projection_parked_events')
      .map((sample) => sample.labels.projection)
      .sort(),
    names,
    'a parked gauge per read model',
  );
  t.ok(
    await platform.runner.waitFor(names, await platform.store.committedHead(), 10_000),
    'the read models catch up',
  );
  const caughtUp = (await scrape(app)).samples;
  for (const name of names) {
    t.equal(one(caughtUp, 'projection_lag_events', { projection: name }), 0, `${name}: no lag`);
    t.equal(
      one(caughtUp, 'projection_parked_events', { projection: name }),
      0,
      `${name}: nothing parked`,
    );
  }

  // Declared before the first delivery; counted by status.
  t.same(find(caughtUp, 'webhook_deliveries_total'), [], 'no delivery yet');
  platform.metrics.webhookDelivered('delivered');
  platform.metrics.webhookDelivered('delivered');
  platform.metrics.webhookDelivered('retrying');
  const delivered = (await scrape(app)).samples;
  t.equal(one(delivered, 'webhook_deliveries_total', { status: 'delivered' }), 2);
  t.equal(one(delivered, 'webhook_deliveries_total', { status: 'retrying' }), 1);

  // Sockets as they open and close.
  t.equal(one(delivered, 'socket_connections'), 0, 'no socket yet');
  const socket = await connected(connectSocket(baseUrl, shipper.token));
  t.equal(one((await scrape(app)).samples, 'socket_connections'), 1, 'one socket connected');
  socket.disconnect();
  const open = await settles(async () => one((await scrape(app)).samples, 'socket_connections'), 0);
  t.equal(open, 0, 'and none once it closed');

  // A write counts its events; the scrape itself is timed under its own route.
  const before = one((await scrape(app)).samples, 'events_appended_total');
  await postLoad(http, shipper.token);
  const after = (await scrape(app)).samples;
  t.ok(one(after, 'events_appended_total') > before, 'a posted load adds its events');
  t.ok(
    one(after, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/metrics',
      status: '200',
    }) >= 5,
    'the scrapes are timed too',
  );

  // Read models that stop reading fall behind: the lag counts the events since their checkpoint.
  await platform.runner.stop();
  await postLoad(http, shipper.token);
  // The lag counts from the readable head, which a transaction in flight elsewhere on a shared
  // PostgreSQL server holds back a moment: read once the head has passed the load.
  await readableThrough(platform.store, await platform.store.committedHead());
  let behind = (await scrape(app)).samples;
  for (
    const deadline = Date.now() + 10_000;
    names.some((name) => one(behind, 'projection_lag_events', { projection: name }) < 1) &&
    Date.now() < deadline;
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    behind = (await scrape(app)).samples;
  }
  for (const name of names)
    t.ok(
      one(behind, 'projection_lag_events', { projection: name }) >= 1,
      `${name} is behind once stopped`,
    );
});

t.test('METRICS_TOKEN: only with its bearer token', async (t) => {
  const token = 'scrape-secret-7Hq2';
  const { app, platform, close } = await startTestApp({ metricsToken: token });
  t.teardown(close);
  const shipper = await organization(app, platform, 'Shipper');
  for (const [headers, label] of [
    [{}, 'no Authorization'],
    [{ authorization: 'Bearer wrong-secret' }, 'another token'],
    [{ authorization: `Bearer ${token}x` }, 'a longer token'],
    [{ authorization: `Bearer ${token.slice(0, -1)}` }, 'a prefix of the token'],
    [{ authorization: token }, 'the token without Bearer'],
    [{ authorization: `Basic ${Buffer.from(`user:${token}`).toString('base64')}` }, 'Basic'],
    [{ authorization: `Bearer ${shipper.token}` }, "a user's access token"],
  ] as const) {
    const answer = await scrape(app, headers);
    t.equal(answer.status, 401, label);
    t.notMatch(answer.text, /events_appended_total/, `${label}: no figures`);
  }
  const refused = await app.inject({ method: 'GET', url: '/metrics' });
  t.equal(refused.headers['www-authenticate'], 'Bearer realm="metrics"');
  t.match(refused.json(), { message: /METRICS_TOKEN/ });

  const allowed = await scrape(app, { authorization: `Bearer ${token}` });
  t.equal(allowed.status, 200, 'the bearer token');
  t.ok(one(allowed.samples, 'events_appended_total') > 0, 'with the figures');
  t.equal(
    one(allowed.samples, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/metrics',
      status: '401',
    }),
    8,
    'the refusals are timed too',
  );
});

t.test('two apps in one process keep their own figures', async (t) => {
  const first = await startTestApp();
  t.teardown(first.close);
  const second = await startTestApp();
  t.teardown(second.close);
  await first.app.inject({ method: 'GET', url: '/api/catalog' });
  await first.app.inject({ method: 'GET', url: '/api/catalog' });
  await second.app.inject({ method: 'GET', url: '/api/catalog' });
  t.equal(
    one((await scrape(first.app)).samples, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/catalog',
      status: '200',
    }),
    2,
  );
  t.equal(
    one((await scrape(second.app)).samples, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/catalog',
      status: '200',
    }),
    1,
  );
});

t.test(
  'read models that cannot be read leave their series out; the rest of the scrape answers',
  async (t) => {
    const metrics = createMetrics();
    const errors: unknown[] = [];
    metrics.readFrom({
      projections: () => Promise.reject(new Error('database unavailable')),
      socketConnections: () => 3,
      onError: (error) => errors.push(error),
    });
    metrics.eventsAppended(2);
    const all = samples(await metrics.scrape());
    t.same(find(all, 'projection_lag_events'), [], 'no lag samples');
    t.same(find(all, 'projection_parked_events'), [], 'no parked samples');
    t.equal(one(all, 'socket_connections'), 3);
    t.equal(one(all, 'events_appended_total'), 2);
    t.equal(errors.length, 1, 'one reading failed, shared by both gauges, and was reported');
    t.match(String(errors[0]), /database unavailable/);
  },
);
