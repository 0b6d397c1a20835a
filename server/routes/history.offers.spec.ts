// @postgres: the history's queries, per reader and at a past position
import t from 'tap';
import { hashShareToken } from '../auth/shareTokens.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { member, organization, PDF, superadmin } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * A carrier never sees another carrier's offer, in the load's history either: the carrier that won
 * reads the load's own events, its own offer and its tour and chat, in JSON, replayed `?at=` a moment
 * and as CSV, without a trace of the rival's organization, people, price or message. The shipper
 * and the Superadmin read every offer; the carrier that lost and a driver read no history at all.
 * Nobody reads a secret of the log there either (a tracking link's token hash).
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', {
  name: 'Acme Shipping',
  userName: 'Sandra Shipper',
});
const rival = await organization(app, platform, 'Carrier', {
  name: 'Rival Hauling',
  userName: 'Rita Rival',
});
const winner = await organization(app, platform, 'Carrier', {
  name: 'Winner Freight',
  userName: 'Will Winner',
});
const driver = await member(app, platform, winner.organizationId!, 4, { name: 'Dan Driver' });

const as = requester(app);

type Entry = {
  type: string;
  stream: string;
  organization: { id: string; name: string | null } | null;
  data: Record<string, unknown>;
};

/** Every trace of the rival: its organization and user (ids and names), its prices and its message. */
const rivalTraces = () => [
  rival.organizationId!,
  rival.userId,
  'Rival Hauling',
  'Rita Rival',
  'Rival says: 1234.56 and no less',
  '1234.56',
  '1111.11',
];
const traceIn = (text: string) => rivalTraces().filter((trace) => text.includes(trace));

let loadId = '';
let rivalOfferId = '';
let winnerOfferId = '';
let tourId = '';
let bothOffered = '';

t.test(
  'two carriers offer on one load; the shipper counters one and accepts the other',
  async (t) => {
    const posted = await as(shipper).post('/api/loads', loadBody());
    t.equal(posted.status, 201, posted.text);
    loadId = posted.body.id;
    const rivalOffer = await as(rival).post(`/api/proposal/${loadId}`, {
      price: 1234.56,
      message: 'Rival says: 1234.56 and no less',
    });
    t.equal(rivalOffer.status, 201, rivalOffer.text);
    rivalOfferId = rivalOffer.body.id;
    t.equal(
      (
        await as(shipper).put(`/api/proposal/${rivalOfferId}`, {
          status: 11,
          price: 1111.11,
        })
      ).status,
      200,
      'a counter to the rival',
    );
    const winnerOffer = await as(winner).post(`/api/proposal/${loadId}`, {
      price: 1500,
      message: 'Ready tomorrow',
    });
    t.equal(winnerOffer.status, 201, winnerOffer.text);
    winnerOfferId = winnerOffer.body.id;
    bothOffered = new Date().toISOString();
    t.equal(
      (await as(shipper).put(`/api/proposal/${winnerOfferId}`, { status: 5 })).status,
      200,
      'the winner accepted',
    );
    const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
    tourId = load.tourId;
    t.ok(tourId, 'a tour opened');
    t.equal(
      (await as(winner).get(`/api/proposal/${winnerOfferId}/rate-confirmation`)).status,
      200,
      'the winner took its rate confirmation',
    );
    const signed = await as(winner).upload(`/api/proposal/load/${loadId}`, {
      fields: { status: '14' },
      files: { contract: { content: PDF, filename: 'signed.pdf' } },
    });
    t.equal(signed.status, 200, 'the winner signed');
    t.equal(
      (await as(winner).post(`/api/tours/${tourId}/assign/${driver.userId}`, {})).status,
      200,
    );
    t.equal(
      (await as(driver).post(`/api/tours/${tourId}/chat`, { message: 'Loaded' })).status,
      201,
    );
  },
);

t.test("the winning carrier's history holds no trace of the rival's offer", async (t) => {
  const history = await as(winner).get(`/api/loads/${loadId}/history`);
  t.equal(history.status, 200);
  const events: Entry[] = history.body.events;
  t.same(traceIn(history.text), [], 'no id, name, price or message of the rival');
  t.notOk(
    events.some((event) => event.stream === `proposal-${rivalOfferId}`),
    "none of the rival offer's events",
  );
  t.ok(
    events.some(
      (event) => event.type === 'ProposalSubmitted' && event.stream === `proposal-${winnerOfferId}`,
    ),
    'its own offer',
  );
  t.ok(
    events.some((event) => event.type === 'LoadProposalAccepted' && event.data.price === 1500),
    'the acceptance of its own price',
  );
  t.ok(
    events.some((event) => event.type === 'RateConfirmationIssued'),
    'its rate confirmation',
  );
  t.ok(
    events.some((event) => event.type === 'TourOpened') &&
      events.some((event) => event.type === 'MessagePosted'),
    'its tour and chat',
  );
  t.notOk(
    events.some((event) => event.type === 'ProposalCountered' || event.type === 'ProposalDeclined'),
    "the counter to the rival and the rival's decline are hidden",
  );

  const csv = await as(winner).get(`/api/loads/${loadId}/history?format=csv`);
  t.equal(csv.status, 200);
  t.same(traceIn(csv.text), [], 'the CSV neither');
  t.equal(csv.text.trim().split('\r\n').length, events.length + 1, 'the same entries as the JSON');
});

t.test('a replay to a moment shows the winning carrier only its own offer', async (t) => {
  for (const at of [bothOffered, new Date().toISOString()]) {
    const replay = await as(winner).get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(at)}`,
    );
    t.equal(replay.status, 200);
    t.same(
      replay.body.proposals.map((offer: { proposalId: string }) => offer.proposalId),
      [winnerOfferId],
      `only its offer at ${at}`,
    );
    t.same(traceIn(replay.text), [], 'no trace of the rival');
    const csv = await as(winner).get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(at)}&format=csv`,
    );
    t.same(traceIn(csv.text), [], 'nor in its CSV');
  }
});

t.test('the shipper and the Superadmin read every offer', async (t) => {
  for (const [who, token] of [
    ['the shipper', shipper.token],
    ['the Superadmin', admin.token],
  ] as const) {
    const history = await as(token).get(`/api/loads/${loadId}/history`);
    t.equal(history.status, 200);
    const events: Entry[] = history.body.events;
    t.match(
      events.find(
        (event) =>
          event.type === 'ProposalSubmitted' && event.stream === `proposal-${rivalOfferId}`,
      ),
      {
        organization: { id: rival.organizationId, name: 'Rival Hauling' },
        data: { price: 1234.56, message: 'Rival says: 1234.56 and no less' },
      },
      `${who}: the rival's offer`,
    );
    t.ok(
      events.some((event) => event.type === 'ProposalCountered'),
      `${who}: the counter`,
    );
    const replay = (
      await as(token).get(`/api/loads/${loadId}/history?at=${encodeURIComponent(bothOffered)}`)
    ).body;
    t.same(
      replay.proposals.map((offer: { proposalId: string }) => offer.proposalId).sort(),
      [rivalOfferId, winnerOfferId].sort(),
      `${who}: both offers replayed`,
    );
    t.match((await as(token).get(`/api/loads/${loadId}/history?format=csv`)).text, /Rival Hauling/);
  }
});

t.test('the carrier that lost reads no history of the load, nor does a driver', async (t) => {
  const events = await watchEvents(platform.store);
  for (const query of ['', '?format=csv', `?at=${encodeURIComponent(bothOffered)}`]) {
    const lost = await as(rival).get(`/api/loads/${loadId}/history${query}`);
    t.equal(lost.status, 404, `the rival${query}`);
    t.notMatch(lost.text, /Winner Freight|1500/);
    await events.expect(t, [], { message: `the refused history${query} appended nothing` });
  }
  t.equal(
    (await as(driver).get(`/api/loads/${loadId}/history`)).status,
    403,
    'the driver: drivers do not read load histories',
  );
  await events.expect(t, [], { message: "the driver's refused history appended nothing" });
});

t.test("a shared tracking link shows in the history without its token's hash", async (t) => {
  const events = await watchEvents(platform.store);
  const shared = await as(shipper).post(`/api/tours/${tourId}/share`, {});
  t.equal(shared.status, 201);
  const { token } = shared.body;
  const tokenHash = hashShareToken(token);
  await events.expect(t, [
    {
      type: 'TourShared',
      stream: tourStream(tourId),
      data: { tourId, tokenHash },
      metadata: { userId: shipper.userId, organizationId: shipper.organizationId },
    },
  ]);
  const stored = (await platform.store.readStream(`tour-${tourId}`)).events.find(
    (event) => event.type === 'TourShared',
  );
  t.equal(
    stored?.data.tokenHash,
    tokenHash,
    'the log keeps the hash, for the link to be looked up',
  );
  for (const [who, reader] of [
    ['the shipper', shipper.token],
    ['the carrier', winner.token],
    ['the Superadmin', admin.token],
  ] as const) {
    const history = await as(reader).get(`/api/loads/${loadId}/history`);
    const entry = (history.body.events as Entry[]).find((event) => event.type === 'TourShared');
    t.match(
      entry,
      {
        organization: { id: shipper.organizationId },
        data: { tourId, shareId: String, expiresAt: String },
      },
      `${who}: who shared the tracking and until when`,
    );
    t.notOk(entry && 'tokenHash' in entry.data, `${who}: no tokenHash field`);
    for (const format of [
      '',
      '?format=csv',
      `?at=${encodeURIComponent(new Date().toISOString())}`,
    ]) {
      const body = (await as(reader).get(`/api/loads/${loadId}/history${format}`)).text;
      t.notOk(
        body.includes(tokenHash) || body.includes(token),
        `${who}${format}: neither the hash nor the token`,
      );
    }
  }
});
