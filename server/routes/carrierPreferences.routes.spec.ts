import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { member, organization } from '../identity/fixtures.ts';
import { listen, sleep, waitUntil } from '../realtime/testing.ts';
import { startListeningApp } from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { inHours, loadBody } from '../testing/loadBodies.ts';

/**
 * Preferred and blocked carriers (docs/api.md "Preferred and blocked carriers"): a shipper's two
 * lists, and what they do on the marketplace: a blocked carrier never sees the shipper's loads; a
 * preferred-only load is its preferred carriers' (rows, the load, offers, the live push) until the
 * scheduler opens it when its window passed, and then everyone's but the blocked.
 */
process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { app, platform, baseUrl, sockets } = await startListeningApp(t);
const as = requester(app);

const shipper = await organization(app, platform, 'Shipper');
const preferred = await organization(app, platform, 'Carrier', { name: 'Preferred Freight' });
const other = await organization(app, platform, 'Carrier', { name: 'Other Freight' });
const blocked = await organization(app, platform, 'Carrier', { name: 'Blocked Freight' });
const pending = await organization(app, platform, 'Carrier', { status: 1 });
const otherShipper = await organization(app, platform, 'Shipper');
const driver = await member(app, platform, preferred.organizationId!, Role.Driver);

const onMarketplace = async (carrier: { token: string }, loadId: string) =>
  ((await as(carrier).get('/api/loads/carrier')).body.data as { id: string }[]).some(
    (row) => row.id === loadId,
  );
const caughtUp = async () =>
  platform.runner.waitFor(['marketplace', 'carrierPreferences'], await platform.store.head());

t.test('GET and PUT carriers/preferences: the lists, their validation and who may', async (t) => {
  const empty = await as(shipper).get('/api/carriers/preferences');
  t.equal(empty.status, 200);
  t.same(empty.body, { preferred: [], blocked: [] }, 'no lists yet');

  const choices = await as(shipper).get('/api/carriers/choices');
  t.equal(choices.status, 200);
  const names = (choices.body as { id: string; name: string }[]).map((choice) => choice.id);
  t.ok(names.includes(preferred.organizationId!), 'an Active carrier is a choice');
  t.notOk(names.includes(pending.organizationId!), 'a Pending carrier is not');
  t.notOk(names.includes(shipper.organizationId!), 'a shipper is not');

  const events = await watchEvents(platform.store);
  const wrong = await as(shipper).put('/api/carriers/preferences', {
    preferred: [preferred.organizationId, otherShipper.organizationId],
    blocked: [],
  });
  t.equal(wrong.status, 400, 'a shipper is not a carrier');
  t.match(JSON.stringify(wrong.body), /preferred\.1/, 'the field is named');
  const inactive = await as(shipper).put('/api/carriers/preferences', {
    preferred: [],
    blocked: ['not-an-id', pending.organizationId],
  });
  t.equal(inactive.status, 400);
  t.match(JSON.stringify(inactive.body), /blocked\.0/, 'a malformed id is named');
  const pendingOnly = await as(shipper).put('/api/carriers/preferences', {
    preferred: [],
    blocked: [pending.organizationId],
  });
  t.match(JSON.stringify(pendingOnly.body), /blocked\.0/, 'a Pending carrier is refused');
  const both = await as(shipper).put('/api/carriers/preferences', {
    preferred: [preferred.organizationId],
    blocked: [preferred.organizationId],
  });
  t.equal(both.status, 400, 'not on both lists');
  t.match(JSON.stringify(both.body), /blocked\.0/);
  const shape = await as(shipper).put('/api/carriers/preferences', { preferred: 'x' });
  t.equal(shape.status, 400, 'a body of the wrong shape');
  await events.expect(t, [], { message: 'the refused lists appended nothing' });

  for (const caller of [preferred, driver]) {
    t.equal((await as(caller).get('/api/carriers/preferences')).status, 403, 'not a shipper');
    t.equal(
      (await as(caller).put('/api/carriers/preferences', { preferred: [], blocked: [] })).status,
      403,
    );
  }

  const saved = await as(shipper).put('/api/carriers/preferences', {
    preferred: [preferred.organizationId],
    blocked: [blocked.organizationId],
  });
  t.equal(saved.status, 200);
  t.same(saved.body, {
    preferred: [preferred.organizationId],
    blocked: [blocked.organizationId],
  });
  t.same((await as(shipper).get('/api/carriers/preferences')).body, saved.body, 'read back');
  t.same(
    (await as(otherShipper).get('/api/carriers/preferences')).body,
    { preferred: [], blocked: [] },
    "another shipper's lists are its own",
  );
});

t.test('preferredOnlyHours: 0 to 168', async (t) => {
  for (const hours of [-1, 169, 2.5, 'x']) {
    const answer = await as(shipper).post(
      '/api/loads',
      loadBody({ audience: { preferredOnlyHours: hours } }),
    );
    t.equal(answer.status, 400, `${hours} hours refused`);
    t.match(JSON.stringify(answer.body), /preferredOnlyHours/);
  }
});

t.test(
  'a preferred-only load: preferred carriers first, the others when it opens, the blocked never',
  async (t) => {
    const listeners = {
      preferred: await listen(baseUrl, 'preferred', preferred.token),
      other: await listen(baseUrl, 'other', other.token),
      blocked: await listen(baseUrl, 'blocked', blocked.token),
    };
    sockets.push(...Object.values(listeners));
    const postedIds = (name: keyof typeof listeners) =>
      listeners[name].heard
        .filter((heard) => heard.event === 'load:posted')
        .map((heard) => (heard.payload as { id: string }).id);

    const posted = await as(shipper).post(
      '/api/loads',
      loadBody({ audience: { preferredOnlyHours: 2 }, expiration: inHours(30) }),
    );
    t.equal(posted.status, 201);
    const loadId = posted.body.id as string;

    const own = (await as(shipper).get(`/api/loads/${loadId}`)).body;
    t.equal(own.audience.preferredOnlyHours, 2, 'the load carries its audience');
    const opensAt = Date.parse(own.audience.opensAt);
    t.ok(Math.abs(opensAt - (Date.parse(own.postedAt) + 2 * 3_600_000)) < 1000, 'two hours on');
    const row = ((await as(shipper).get('/api/loads/shipper')).body.data as any[]).find(
      (candidate) => candidate.id === loadId,
    );
    t.same(row.audience, own.audience, "the shipper's row shows it too");

    await waitUntil(() => postedIds('preferred').includes(loadId), 10_000, 'the preferred push');
    await sleep(300);
    t.ok(postedIds('preferred').includes(loadId), 'the preferred carrier hears of it at once');
    t.notOk(postedIds('other').includes(loadId), 'another carrier hears nothing');
    t.notOk(postedIds('blocked').includes(loadId), 'the blocked carrier hears nothing');

    t.ok(await onMarketplace(preferred, loadId), 'on the preferred carrier’s marketplace');
    t.notOk(await onMarketplace(other, loadId), 'not on another carrier’s');
    t.notOk(await onMarketplace(blocked, loadId), 'not on the blocked carrier’s');
    t.equal((await as(preferred).get(`/api/loads/${loadId}`)).status, 200);
    t.equal((await as(other).get(`/api/loads/${loadId}`)).status, 404, 'GET by id: 404');
    t.equal((await as(blocked).get(`/api/loads/${loadId}`)).status, 404);
    const offer = { price: 1500, message: 'Ready' };
    t.equal((await as(other).post(`/api/proposal/${loadId}`, offer)).status, 404, 'no offer');
    t.equal((await as(blocked).post(`/api/proposal/${loadId}`, offer)).status, 404);

    // The scheduler, an hour in: nothing yet.
    t.equal(await platform.loadExpiry!.open(inHours(1)), 0, 'still inside its window');
    t.notOk(await onMarketplace(other, loadId));

    // Past the window: it opens, once, and history shows it.
    t.ok((await platform.loadExpiry!.open(inHours(2.1))) >= 1, 'the window passed: opened');
    t.equal(await platform.loadExpiry!.open(inHours(2.2)), 0, 'a second pass opens nothing');
    await caughtUp();
    await waitUntil(() => postedIds('other').includes(loadId), 10_000, 'the push to the others');
    await sleep(300);
    t.equal(
      postedIds('preferred').filter((id) => id === loadId).length,
      1,
      'the preferred carrier is not told of it as new again',
    );
    t.notOk(postedIds('blocked').includes(loadId), 'the blocked carrier still hears nothing');

    t.ok(await onMarketplace(other, loadId), 'now on every carrier’s marketplace');
    t.ok(await onMarketplace(preferred, loadId));
    t.notOk(await onMarketplace(blocked, loadId), 'but never the blocked carrier’s');
    t.equal((await as(other).get(`/api/loads/${loadId}`)).status, 200);
    t.equal((await as(blocked).get(`/api/loads/${loadId}`)).status, 404);
    t.equal((await as(other).post(`/api/proposal/${loadId}`, offer)).status, 201, 'an offer now');
    t.equal((await as(blocked).post(`/api/proposal/${loadId}`, offer)).status, 404);
    const opened = (await as(shipper).get(`/api/loads/${loadId}`)).body;
    t.equal(opened.audience.opensAt, null, 'open to everyone');
    const history = await as(shipper).get(`/api/loads/${loadId}/history`);
    t.match(JSON.stringify(history.body), /LoadOpenedToMarketplace/, 'history shows the opening');
  },
);

t.test(
  'Book Now follows the same audience: the blocked never book, the others once it opens',
  async (t) => {
    const posted = await as(shipper).post(
      '/api/loads',
      loadBody({
        audience: { preferredOnlyHours: 2 },
        bookNowPrice: 1800,
        expiration: inHours(30),
      }),
    );
    t.equal(posted.status, 201);
    const loadId = posted.body.id as string;
    const book = (carrier: { token: string }) => as(carrier).post(`/api/loads/${loadId}/book`, {});
    t.equal((await book(blocked)).status, 404, 'the blocked carrier cannot book it');
    t.equal((await book(other)).status, 404, 'nor another carrier inside the window');
    t.ok((await platform.loadExpiry!.open(inHours(2.1))) >= 1, 'the window passed');
    await caughtUp();
    t.equal((await book(blocked)).status, 404, 'still not the blocked carrier');
    const booked = await book(other);
    t.equal(booked.status, 201, 'any other carrier books it once it is open');
    t.ok(booked.body.tourId, 'with its tour');
  },
);

t.test('a load without a window: everyone but the blocked, at once', async (t) => {
  const posted = await as(shipper).post('/api/loads', loadBody());
  const loadId = posted.body.id as string;
  t.equal((await as(shipper).get(`/api/loads/${loadId}`)).body.audience, null);
  t.ok(await onMarketplace(other, loadId));
  t.ok(await onMarketplace(preferred, loadId));
  t.notOk(await onMarketplace(blocked, loadId), 'the blocked carrier never sees it');
  t.equal((await as(blocked).get(`/api/loads/${loadId}`)).status, 404);

  // Unblocked, it sees the shipper's loads again.
  await as(shipper).put('/api/carriers/preferences', {
    preferred: [preferred.organizationId],
    blocked: [],
  });
  t.ok(await onMarketplace(blocked, loadId), 'unblocked: on its marketplace again');
});

t.test('both lists emptied (every carrier unticked) are saved', async (t) => {
  const cleared = await as(shipper).put('/api/carriers/preferences', {
    preferred: [],
    blocked: [],
  });
  t.equal(cleared.status, 200, 'the lists emptied');
  t.same(cleared.body, { preferred: [], blocked: [] });
  t.same(
    (await as(shipper).get('/api/carriers/preferences')).body,
    { preferred: [], blocked: [] },
    'read back empty',
  );
  const first = await as(otherShipper).put('/api/carriers/preferences', {
    preferred: [],
    blocked: [],
  });
  t.equal(first.status, 200, "a shipper's first save may tick no carrier");
});
