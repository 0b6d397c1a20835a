// @postgres: the delivery outbox and replays, claimed across connections
/**
 * Webhooks against real local receivers (WEBHOOK_ALLOW_PRIVATE): signed deliveries that verify with
 * the README's code, retries with the same id, order after an outage, a restart between attempts,
 * replay, who hears of what, the failure e-mail, URL checks, and 404 across organizations.
 */
import crypto from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { bearer, member, organization } from '../identity/fixtures.ts';
import { startPlatform } from '../platform.ts';
import { postLoad, submitOffer, waitUntil } from '../realtime/testing.ts';
import { openTestDatabase } from '../testing/testDatabase.ts';
import { startTestApp } from '../testing/testApp.ts';
import { isNonPublicAddress, resolveWebhookTarget } from './addresses.ts';
import { defaultWebhookSettings, type WebhookSettings } from './settings.ts';

const fast: WebhookSettings = {
  ...defaultWebhookSettings(true),
  firstDelayMs: 40,
  maxDelayMs: 150,
  pollMs: 30,
  timeoutMs: 1500,
  notifyAfterAttempts: 3,
};

/** The README's verification code, run as written. */
const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
const snippet = /<!-- webhook-verify -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const verifyWebhook = new Function(
  'crypto',
  `${snippet.replace(/^import .*$/m, '')}\nreturn verifyWebhook;`,
)(crypto) as (secret: string, headers: Record<string, string>, rawBody: string) => boolean;

type Received = {
  id: string;
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; occurredAt: string; data: any };
  status: number;
};
/** A webhook receiver on a loopback port: answers what `answer` says and keeps every request. */
async function receiver(answer: (request: Received) => number = () => 200, port = 0) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Received = {
        id: String(request.headers['webhook-id']),
        headers: request.headers as Record<string, string>,
        body,
        json: JSON.parse(body),
        status: 0,
      };
      entry.status = answer(entry);
      received.push(entry);
      response.writeHead(entry.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    received,
    port: address.port,
    url: `http://127.0.0.1:${address.port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function smtpServer() {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    mails,
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const smtp = await smtpServer();
t.teardown(smtp.close);
const { app, platform, close } = await startTestApp({
  webhooks: fast,
  smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
});
t.teardown(close);
await app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const httpClient = async (method: string, url: string, token: string | null, body?: unknown) => {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: token ? bearer(token) : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, json: response.body ? response.json() : null };
};

const shipper = await organization(app, platform, 'Shipper', { name: 'Hook Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Hook Hauling' });
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Shipping' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Other Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);

const ALL = [
  'load.posted',
  'load.updated',
  'load.status',
  'proposal.created',
  'proposal.updated',
  'tour.status',
  'tour.event',
  'tour.position',
  'chat.message',
];
const addHook = async (token: string, url: string, events = ALL, description = 'ERP') => {
  const answer = await httpClient('POST', '/api/webhooks', token, { url, events, description });
  if (answer.status !== 201)
    throw new Error(`webhook: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json as { id: string; secret: string };
};
const deliveriesOf = async (token: string, id: string, query = '') =>
  (await httpClient('GET', `/api/webhooks/${id}/deliveries?pageSize=100${query}`, token)).json;
/**
 * Reads `read` until `done` holds (or 10 s pass) and answers the last reading: the receiver hears a
 * delivery before the sender has recorded its outcome, so a read right after may still show the attempt running.
 */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

t.test('a delivery is signed as documented and verifies with the README code', async (t) => {
  const hook = await receiver();
  t.teardown(hook.close);
  const { id, secret } = await addHook(shipper.token, hook.url, ['load.posted']);
  t.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  t.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
  const stored = await platform.database.db
    .selectFrom('webhook_endpoints')
    .select('secret_sealed')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  t.notOk(stored.secret_sealed.includes(secret.slice(6)), 'the secret is stored sealed');

  const load = await postLoad(httpClient, shipper.token);
  await waitUntil(() => hook.received.length >= 1, 10_000, 'the delivery');
  const [delivery] = hook.received;
  t.equal(delivery!.json.type, 'load.posted');
  t.equal(delivery!.json.data.id, load.id);
  t.equal(delivery!.id, delivery!.json.id, 'webhook-id is the event id');
  t.match(delivery!.headers['webhook-timestamp'], /^\d{10}$/);
  t.ok(verifyWebhook(secret, delivery!.headers, delivery!.body), 'verifies');
  t.notOk(
    verifyWebhook(secret, delivery!.headers, delivery!.body.replace(load.id, crypto.randomUUID())),
    'a changed body does not',
  );
  const list = await settled(
    async () => (await httpClient('GET', '/api/webhooks', shipper.token)).json,
    (rows) => rows[0]?.lastDelivery?.status === 'delivered',
  );
  t.match(list, [
    {
      id,
      url: hook.url,
      events: ['load.posted'],
      description: 'ERP',
      lastDelivery: { status: 'delivered', attempts: 1, responseStatus: 200, type: 'load.posted' },
    },
  ]);
  t.notOk(JSON.stringify(list).includes('whsec_'), 'the list never shows the secret');
  t.equal((await httpClient('DELETE', `/api/webhooks/${id}`, shipper.token)).status, 204);
});

t.test(
  'a 500 then a 200: one event id sent twice, recorded delivered after 2 attempts',
  async (t) => {
    let calls = 0;
    const hook = await receiver(() => (++calls === 1 ? 500 : 200));
    t.teardown(hook.close);
    const { id } = await addHook(shipper.token, hook.url, ['load.posted']);
    await postLoad(httpClient, shipper.token);
    await waitUntil(() => hook.received.length >= 2, 10_000, 'the retry');
    t.same(
      hook.received.map((entry) => entry.status),
      [500, 200],
    );
    t.equal(hook.received[0]!.id, hook.received[1]!.id, 'the same webhook-id');
    const table = await settled(
      () => deliveriesOf(shipper.token, id),
      (answer) => answer.data?.[0]?.status === 'delivered',
    );
    t.match(table, {
      total: 1,
      data: [
        {
          eventId: hook.received[0]!.id,
          type: 'load.posted',
          status: 'delivered',
          attempts: 2,
          responseStatus: 200,
        },
      ],
    });
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    t.match(metrics, /webhook_deliveries_total\{status="retrying"\} [1-9]/, 'the retry is counted');
    t.match(
      metrics,
      /webhook_deliveries_total\{status="delivered"\} [1-9]/,
      'the delivery is counted',
    );
    await httpClient('DELETE', `/api/webhooks/${id}`, shipper.token);
  },
);

t.test(
  'a receiver down for a while gets everything afterwards, in order; replay re-sends the same ids',
  async (t) => {
    const first = await receiver();
    const { id } = await addHook(shipper.token, first.url, [
      'load.posted',
      'load.updated',
      'load.status',
    ]);
    const port = first.port;
    await first.close();
    const from = new Date().toISOString();
    const posted: string[] = [];
    for (let index = 0; index < 4; index++)
      posted.push((await postLoad(httpClient, shipper.token)).id);
    await waitUntil(() => false, 400, 'a few failed attempts').catch(() => undefined);
    const failing = await deliveriesOf(shipper.token, id);
    t.ok(
      failing.data.some(
        (row: { status: string; attempts: number }) =>
          row.status === 'retrying' && row.attempts >= 1,
      ),
      'retrying while down',
    );
    const back = await receiver(() => 200, port);
    t.teardown(back.close);
    await waitUntil(
      () => back.received.filter((entry) => entry.status === 200).length >= 4,
      10_000,
      'all four',
    );
    t.same(
      back.received.map((entry) => entry.json.data.id),
      posted,
      'in the order they were posted',
    );
    const ids = back.received.map((entry) => entry.id);

    const replay = await httpClient('POST', `/api/webhooks/${id}/replay`, shipper.token, { from });
    t.equal(replay.status, 202);
    t.same(replay.json, { queued: 4 });
    await waitUntil(() => back.received.length >= 8, 10_000, 'the replay');
    t.same(
      back.received.slice(4).map((entry) => entry.id),
      ids,
      'the same ids, in log order',
    );
    t.equal(
      (await httpClient('POST', `/api/webhooks/${id}/replay`, shipper.token, { from: 'yesterday' }))
        .status,
      400,
    );
    await httpClient('DELETE', `/api/webhooks/${id}`, shipper.token);
  },
);

t.test(
  'an endpoint that never answers delays no other: its attempt times out and is retried',
  async (t) => {
    const hanging: http.ServerResponse[] = [];
    const slow = http.createServer((_request, response) => {
      hanging.push(response);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    t.teardown(
      () =>
        new Promise<void>((resolve) => {
          slow.closeAllConnections();
          slow.close(() => resolve());
        }),
    );
    const fastHook = await receiver();
    t.teardown(fastHook.close);
    const slowId = (
      await addHook(
        shipper.token,
        `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`,
        ['load.posted'],
      )
    ).id;
    const fastId = (await addHook(carrier.token, fastHook.url, ['load.posted'])).id;
    const posted = Date.now();
    const load = await postLoad(httpClient, shipper.token);
    await waitUntil(
      () => fastHook.received.some((entry) => entry.json.data.id === load.id),
      10_000,
      'the fast endpoint',
    );
    t.ok(
      Date.now() - posted < fast.timeoutMs,
      'the fast endpoint got it while the slow one still hung',
    );
    await waitUntil(() => hanging.length >= 2, 10_000, 'a second attempt after the timeout');
    const table = await deliveriesOf(shipper.token, slowId);
    t.match(table.data[0], { status: 'retrying', responseStatus: null });
    t.ok(table.data[0].attempts >= 1);
    await httpClient('DELETE', `/api/webhooks/${slowId}`, shipper.token);
    await httpClient('DELETE', `/api/webhooks/${fastId}`, carrier.token);
  },
);

t.test('an organization hears only of what its users could see', async (t) => {
  const hooks = {
    shipper: await receiver(),
    carrier: await receiver(),
    otherShipper: await receiver(),
    otherCarrier: await receiver(),
  };
  t.teardown(() => Promise.all(Object.values(hooks).map((hook) => hook.close())));
  const ids = {
    shipper: await addHook(shipper.token, hooks.shipper.url),
    carrier: await addHook(carrier.token, hooks.carrier.url),
    otherShipper: await addHook(otherShipper.token, hooks.otherShipper.url),
    otherCarrier: await addHook(otherCarrier.token, hooks.otherCarrier.url),
  };
  const load = await postLoad(httpClient, shipper.token);
  const offerId = await submitOffer(httpClient, carrier.token, load.id, 1500);
  await waitUntil(
    () => hooks.shipper.received.some((entry) => entry.json.type === 'proposal.created'),
    10_000,
    'the offer',
  );
  await waitUntil(
    () => hooks.otherCarrier.received.some((entry) => entry.json.type === 'load.posted'),
    10_000,
    'the marketplace',
  );
  const types = (hook: { received: Received[] }) =>
    hook.received
      .filter((entry) => JSON.stringify(entry.json.data).includes(load.id))
      .map((entry) => entry.json.type);
  t.same(
    types(hooks.shipper).sort(),
    ['load.posted', 'proposal.created'],
    'the shipper: its load and the offer on it',
  );
  t.same(types(hooks.carrier), ['load.posted'], 'the carrier: the marketplace load');
  t.same(
    types(hooks.otherCarrier),
    ['load.posted'],
    'another carrier: the marketplace load, not the offer',
  );
  t.same(types(hooks.otherShipper), [], 'another shipper: nothing of a load it cannot see');
  t.notOk(
    JSON.stringify(hooks.otherCarrier.received).includes(offerId),
    'another carrier never hears of the offer',
  );
  for (const [who, { id }] of Object.entries(ids))
    await httpClient(
      'DELETE',
      `/api/webhooks/${id}`,
      ({ shipper, carrier, otherShipper, otherCarrier } as Record<string, { token: string }>)[who]!
        .token,
    );
});

t.test('repeated failures e-mail the organization managers once', async (t) => {
  const hook = await receiver(() => 503);
  t.teardown(hook.close);
  const { id } = await addHook(carrier.token, hook.url, ['load.posted']);
  await postLoad(httpClient, shipper.token);
  const toCarrier = () => smtp.mails.filter((mail) => mail.includes(`To: ${carrier.email}`));
  await waitUntil(() => toCarrier().length >= 1, 10_000, 'the e-mail');
  const [mail] = toCarrier();
  t.match(mail, /Subject: Webhook deliveries are failing/);
  t.ok(mail!.includes(hook.url), 'names the endpoint');
  t.ok(hook.received.length >= 3, 'after three failed attempts');
  await waitUntil(() => hook.received.length >= 6, 10_000, 'more attempts');
  t.equal(toCarrier().length, 1, 'once');
  t.notOk(
    smtp.mails.some((text) => text.includes(`To: ${driver.email}`)),
    'not to the driver',
  );
  await httpClient('DELETE', `/api/webhooks/${id}`, carrier.token);
});

t.test('endpoints are the organization own: another one answers 404, drivers 403', async (t) => {
  const hook = await receiver();
  t.teardown(hook.close);
  const { id } = await addHook(shipper.token, hook.url, ['load.posted']);
  for (const [method, url, body] of [
    ['DELETE', `/api/webhooks/${id}`],
    ['GET', `/api/webhooks/${id}/deliveries`],
    ['POST', `/api/webhooks/${id}/replay`, { from: new Date().toISOString() }],
    ['POST', `/api/webhooks/${id}/test`],
  ] as const) {
    t.equal(
      (await httpClient(method, url, otherShipper.token, body)).status,
      404,
      `${method} ${url} of another organization`,
    );
  }
  t.same((await httpClient('GET', '/api/webhooks', otherShipper.token)).json, []);
  t.equal((await httpClient('GET', '/api/webhooks', driver.token)).status, 403);
  const sent = await httpClient('POST', `/api/webhooks/${id}/test`, shipper.token);
  t.equal(sent.status, 202);
  await waitUntil(
    () => hook.received.some((entry) => entry.id === sent.json.eventId),
    10_000,
    'the test event',
  );
  t.match(hook.received.find((entry) => entry.id === sent.json.eventId)!.json, {
    type: 'webhook.test',
  });
  const bad = await httpClient('POST', '/api/webhooks', shipper.token, {
    url: hook.url,
    events: ['load.sold'],
  });
  t.equal(bad.status, 400);
  t.match(bad.json.errors, [{ path: 'events.0' }]);
  t.equal(
    (await httpClient('POST', '/api/webhooks', shipper.token, { url: hook.url, events: [] }))
      .status,
    400,
  );
  t.equal((await httpClient('DELETE', `/api/webhooks/${id}`, shipper.token)).status, 204);
  t.equal((await httpClient('DELETE', `/api/webhooks/${id}`, shipper.token)).status, 404);
});

t.test('URLs: https only and never a private address, unless WEBHOOK_ALLOW_PRIVATE', async (t) => {
  const strict = await startTestApp({ webhooks: defaultWebhookSettings(false) });
  t.teardown(strict.close);
  const owner = await organization(strict.app, strict.platform, 'Shipper');
  const post = async (url: string) => {
    const answer = await strict.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(owner.token),
      payload: { url, events: ['load.posted'] },
    });
    return {
      status: answer.statusCode,
      errors: answer.json().errors as { path: string; message: string }[] | undefined,
    };
  };
  for (const url of ['http://93.184.216.34/hook', 'ftp://93.184.216.34/hook', 'not a url']) {
    t.match(await post(url), { status: 400, errors: [{ path: 'url' }] }, url);
  }
  for (const url of [
    'https://127.0.0.1/hook',
    'https://10.1.2.3/',
    'https://192.168.0.10/',
    'https://169.254.169.254/latest',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://localhost/hook',
    'http://127.0.0.1/hook',
  ]) {
    const answer = await post(url);
    t.equal(answer.status, 400, url);
    t.equal(answer.errors?.[0]?.path, 'url');
  }
  t.equal((await post('https://93.184.216.34/hook')).status, 201, 'a public https address');
  // A name that resolves to a public and a private address is refused: every address is checked.
  await t.rejects(
    resolveWebhookTarget('https://hooks.example.com/', false, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]),
    /public address/,
  );
  t.match(
    await resolveWebhookTarget('https://hooks.example.com/', false, async () => [
      { address: '93.184.216.34', family: 4 },
    ]),
    { address: '93.184.216.34' },
  );
  t.ok(
    isNonPublicAddress('fe80::1') &&
      isNonPublicAddress('fe80::1%eth0') &&
      isNonPublicAddress('fd00::1') &&
      isNonPublicAddress('100.64.0.1') &&
      isNonPublicAddress('::ffff:10.0.0.1'),
    'private, link-local and mapped addresses',
  );
  t.ok(
    !isNonPublicAddress('2606:4700::1111') && !isNonPublicAddress('93.184.216.34'),
    'public ones',
  );
  // With the flag: http to loopback, but not to a public address.
  t.equal(
    (
      await httpClient('POST', '/api/webhooks', shipper.token, {
        url: 'http://93.184.216.34/hook',
        events: ['load.posted'],
      })
    ).status,
    400,
  );
});

t.test(
  'a server restart between attempts loses nothing and re-sends nothing acknowledged',
  async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'webhooks-restart-'));
    const postgres = process.env.DATABASE_URL ? await openTestDatabase('postgres') : null;
    t.teardown(async () => {
      rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    });
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: postgres?.url ?? '',
      JWT_SECRET: 'restart-secret-restart-secret-restart-secret',
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
    };
    const start = async () => {
      const config: Config = loadConfig(env, {
        inMemory: false,
        demo: false,
        logLevel: 'silent',
        prettyLogs: false,
        webhooks: fast,
      });
      const started = await startPlatform(config, pino({ level: 'silent' }));
      const built = await buildApp(started);
      await built.ready();
      return {
        app: built,
        platform: started,
        close: async () => {
          await built.close();
          await started.close();
        },
      };
    };
    let failing = true;
    const hook = await receiver(() => (failing ? 500 : 200));
    t.teardown(hook.close);
    let server = await start();
    const owner = await organization(server.app, server.platform, 'Shipper');
    const hookAnswer = await server.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(owner.token),
      payload: { url: hook.url, events: ['load.posted'] },
    });
    const { id, secret } = hookAnswer.json();
    const inject =
      (s: typeof server) =>
      async (method: string, url: string, token: string | null, body?: unknown) => {
        const response = await s.app.inject({
          method: method as 'GET',
          url,
          headers: token ? bearer(token) : {},
          ...(body === undefined ? {} : { payload: body as object }),
        });
        return { status: response.statusCode, json: response.json() };
      };
    const delivered = await postLoad(inject(server), owner.token);
    await waitUntil(() => hook.received.length >= 1, 10_000, 'a failed attempt');
    failing = false;
    await waitUntil(
      () => hook.received.some((entry) => entry.status === 200),
      10_000,
      'the first delivered',
    );
    failing = true;
    const waiting = await postLoad(inject(server), owner.token);
    await waitUntil(
      () => hook.received.filter((entry) => entry.json.data.id === waiting.id).length >= 1,
      10_000,
      'a failed attempt of the second',
    );
    await server.close();
    const before = hook.received.length;
    failing = false;
    server = await start();
    t.teardown(() => server.close());
    const token = (
      await server.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: owner.email, password: 'correct-horse-1' },
      })
    ).json().accessToken;
    await waitUntil(
      () =>
        hook.received
          .slice(before)
          .some((entry) => entry.status === 200 && entry.json.data.id === waiting.id),
      10_000,
      'the second after the restart',
    );
    t.equal(
      hook.received.filter((entry) => entry.status === 200 && entry.json.data.id === delivered.id)
        .length,
      1,
      'the acknowledged one is not sent again',
    );
    const ok = hook.received.find(
      (entry) => entry.status === 200 && entry.json.data.id === waiting.id,
    )!;
    t.ok(
      verifyWebhook(secret, ok.headers, ok.body),
      'signed with the same secret after the restart',
    );
    const table = await settled(
      async () => (await inject(server)('GET', `/api/webhooks/${id}/deliveries`, token)).json,
      (answer) => answer.data?.every((row: { status: string }) => row.status === 'delivered'),
    );
    t.match(table.data, [{ status: 'delivered', responseStatus: 200 }, { status: 'delivered' }]);
    t.ok(table.data[0].attempts >= 2);
  },
);

// The reactor keeps its list of endpoints between pages; a change made by another process reaches it
// through a NOTIFY (kept for a minute here, so only the notice can explain a delivery).
t.test(
  'an endpoint added or removed through another process is heard by the reactor at once',
  {
    skip: process.env.DATABASE_URL
      ? false
      : 'needs PostgreSQL (DATABASE_URL): two live processes on one database',
  },
  async (t) => {
    const postgres = await openTestDatabase('postgres');
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'webhooks-two-')));
    t.teardown(async () => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await postgres.drop();
    });
    const shared = {
      DATABASE_URL: postgres.url!,
      JWT_SECRET: 'two-processes-secret-two-processes-secret',
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
    };
    const start = async (dir: string) => {
      const config: Config = loadConfig(
        { ...shared, DATA_DIR: dir },
        {
          inMemory: false,
          demo: false,
          logLevel: 'silent',
          prettyLogs: false,
          webhooks: { ...fast, endpointsFreshMs: 60_000 },
        },
      );
      const started = await startPlatform(config, pino({ level: 'silent' }));
      const built = await buildApp(started);
      await built.ready();
      return {
        app: built,
        platform: started,
        close: async () => {
          await built.close();
          await started.close();
        },
      };
    };
    const a = await start(dirs[0]!); // first: it runs the webhook reactor
    t.teardown(() => a.close());
    const b = await start(dirs[1]!);
    t.teardown(() => b.close());
    const inject =
      (server: typeof a) =>
      async (method: string, url: string, token: string | null, body?: unknown) => {
        const response = await server.app.inject({
          method: method as 'GET',
          url,
          headers: token ? bearer(token) : {},
          ...(body === undefined ? {} : { payload: body as object }),
        });
        return { status: response.statusCode, json: response.body ? response.json() : null };
      };
    const hook = await receiver();
    t.teardown(hook.close);
    const owner = await organization(a.app, a.platform, 'Shipper');
    // A load before any endpoint: the reactor has read (and keeps) an empty list.
    await postLoad(inject(a), owner.token);
    t.ok(
      await a.platform.webhooks.waitFor(await a.platform.store.head()),
      'the reactor handled the first load',
    );

    const created = await inject(b)('POST', '/api/webhooks', owner.token, {
      url: hook.url,
      events: ['load.posted'],
    });
    t.equal(created.status, 201, 'endpoint created through the other process');
    const heard = await postLoad(inject(b), owner.token);
    await waitUntil(
      () => hook.received.some((entry) => entry.json.data.id === heard.id),
      10_000,
      'the load posted after the endpoint was added',
    );
    t.pass('delivered to the endpoint the other process added');

    t.equal(
      (await inject(b)('DELETE', `/api/webhooks/${created.json.id}`, owner.token)).status,
      204,
      'endpoint removed through the other process',
    );
    const unheard = await postLoad(inject(b), owner.token);
    t.ok(
      await a.platform.webhooks.waitFor(await a.platform.store.head()),
      'the reactor handled the load posted after the removal',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.notOk(
      hook.received.some((entry) => entry.json.data.id === unheard.id),
      'nothing queued for the removed endpoint',
    );
  },
);
