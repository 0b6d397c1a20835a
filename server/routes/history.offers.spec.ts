// @postgres: the history's queries, per reader and at a past position
import t from 'tap';
import { hashShareToken } from '../auth/shareTokens.ts';
import { bearer, member, multipart, organization, PDF, superadmin } from '../identity/fixtures.ts';
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

const get = (url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: bearer(token) });
const send = (method: 'PUT' | 'POST', url: string, token: string, payload: object) =>
  app.inject({ method, url, headers: bearer(token), payload });

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
    const posted = await send('POST', '/api/loads', shipper.token, loadBody());
    t.equal(posted.statusCode, 201, posted.body);
    loadId = posted.json().id;
    const rivalOffer = await send('POST', `/api/proposal/${loadId}`, rival.token, {
      price: 1234.56,
      message: 'Rival says: 1234.56 and no less',
    });
    t.equal(rivalOffer.statusCode, 201, rivalOffer.body);
    rivalOfferId = rivalOffer.json().id;
    t.equal(
      (
        await send('PUT', `/api/proposal/${rivalOfferId}`, shipper.token, {
          status: 11,
          price: 1111.11,
        })
      ).statusCode,
      200,
      'a counter to the rival',
    );
    const winnerOffer = await send('POST', `/api/proposal/${loadId}`, winner.token, {
      price: 1500,
      message: 'Ready tomorrow',
    });
    t.equal(winnerOffer.statusCode, 201, winnerOffer.body);
    winnerOfferId = winnerOffer.json().id;
    bothOffered = new Date().toISOString();
    t.equal(
      (await send('PUT', `/api/proposal/${winnerOfferId}`, shipper.token, { status: 5 }))
        .statusCode,
      200,
      'the winner accepted',
    );
    const load = (await get(`/api/loads/${loadId}`, shipper.token)).json();
    tourId = load.tourId;
    t.ok(tourId, 'a tour opened');
    t.equal(
      (await get(`/api/proposal/${winnerOfferId}/rate-confirmation`, winner.token)).statusCode,
      200,
      'the winner took its rate confirmation',
    );
    const form = multipart(undefined, { contract: { content: PDF, filename: 'signed.pdf' } });
    form.payload = Buffer.concat([
      Buffer.from(
        `--${form.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`,
      ),
      form.payload,
    ]);
    const signed = await app.inject({
      method: 'POST',
      url: `/api/proposal/load/${loadId}`,
      headers: { ...form.headers, ...bearer(winner.token) },
      payload: form.payload,
    });
    t.equal(signed.statusCode, 200, 'the winner signed');
    t.equal(
      (await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, winner.token, {}))
        .statusCode,
      200,
    );
    t.equal(
      (await send('POST', `/api/tours/${tourId}/chat`, driver.token, { message: 'Loaded' }))
        .statusCode,
      201,
    );
  },
);

t.test("the winning carrier's history holds no trace of the rival's offer", async (t) => {
  const history = await get(`/api/loads/${loadId}/history`, winner.token);
  t.equal(history.statusCode, 200);
  const events: Entry[] = history.json().events;
  t.same(traceIn(history.body), [], 'no id, name, price or message of the rival');
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

  const csv = await get(`/api/loads/${loadId}/history?format=csv`, winner.token);
  t.equal(csv.statusCode, 200);
  t.same(traceIn(csv.body), [], 'the CSV neither');
  t.equal(csv.body.trim().split('\r\n').length, events.length + 1, 'the same entries as the JSON');
});

t.test('a replay to a moment shows the winning carrier only its own offer', async (t) => {
  for (const at of [bothOffered, new Date().toISOString()]) {
    const replay = await get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(at)}`,
      winner.token,
    );
    t.equal(replay.statusCode, 200);
    t.same(
      replay.json().proposals.map((offer: { proposalId: string }) => offer.proposalId),
      [winnerOfferId],
      `only its offer at ${at}`,
    );
    t.same(traceIn(replay.body), [], 'no trace of the rival');
    const csv = await get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(at)}&format=csv`,
      winner.token,
    );
    t.same(traceIn(csv.body), [], 'nor in its CSV');
  }
});

t.test('the shipper and the Superadmin read every offer', async (t) => {
  for (const [who, token] of [
    ['the shipper', shipper.token],
    ['the Superadmin', admin.token],
  ] as const) {
    const history = await get(`/api/loads/${loadId}/history`, token);
    t.equal(history.statusCode, 200);
    const events: Entry[] = history.json().events;
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
      await get(`/api/loads/${loadId}/history?at=${encodeURIComponent(bothOffered)}`, token)
    ).json();
    t.same(
      replay.proposals.map((offer: { proposalId: string }) => offer.proposalId).sort(),
      [rivalOfferId, winnerOfferId].sort(),
      `${who}: both offers replayed`,
    );
    t.match((await get(`/api/loads/${loadId}/history?format=csv`, token)).body, /Rival Hauling/);
  }
});

t.test('the carrier that lost reads no history of the load, nor does a driver', async (t) => {
  for (const query of ['', '?format=csv', `?at=${encodeURIComponent(bothOffered)}`]) {
    const lost = await get(`/api/loads/${loadId}/history${query}`, rival.token);
    t.equal(lost.statusCode, 404, `the rival${query}`);
    t.notMatch(lost.body, /Winner Freight|1500/);
  }
  t.equal(
    (await get(`/api/loads/${loadId}/history`, driver.token)).statusCode,
    403,
    'the driver: drivers do not read load histories',
  );
});

t.test("a shared tracking link shows in the history without its token's hash", async (t) => {
  const shared = await send('POST', `/api/tours/${tourId}/share`, shipper.token, {});
  t.equal(shared.statusCode, 201);
  const { token } = shared.json();
  const tokenHash = hashShareToken(token);
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
    const history = await get(`/api/loads/${loadId}/history`, reader);
    const entry = (history.json().events as Entry[]).find((event) => event.type === 'TourShared');
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
      const body = (await get(`/api/loads/${loadId}/history${format}`, reader)).body;
      t.notOk(
        body.includes(tokenHash) || body.includes(token),
        `${who}${format}: neither the hash nor the token`,
      );
    }
  }
});
