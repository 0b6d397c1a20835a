import t from 'tap';
import { DEMO_PASSWORD, seedDemo } from '../identity/bootstrap.ts';
import { bearer, signIn } from '../identity/fixtures.ts';
import { startTestApp } from '../testing/testApp.ts';
import { demoEmail, LIVE_REF_NUMBER, places, scenarios } from './demoData.ts';
import { seedMarketplaceDemo } from './marketplaceSeed.ts';
import { historyPlaces } from './historyLanes.ts';
import { facilityAt } from '../../projections/facilities/facilities.queries.ts';
import { startDemoTicker } from './positionTicker.ts';

const { app, platform, close } = await startTestApp({ demo: true });
t.teardown(close);

// Assertions wait for the subtests: a top-level one would let tap end the file before the awaits below.
const accountsSeeded = await seedDemo(platform);
const started = Date.now();
const marketplaceSeeded = await seedMarketplaceDemo(platform);
const seedMs = Date.now() - started;

const get = (url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: bearer(token) });
const shipper = await signIn(app, demoEmail('shipper1'), DEMO_PASSWORD);
const carrier = await signIn(app, demoEmail('carrier1'), DEMO_PASSWORD);
const driver = await signIn(app, demoEmail('carrier1.driver1'), DEMO_PASSWORD);
type Row = {
  id: string;
  refNumber?: string;
  statusName: string;
  loadStatus: number;
  tourId: string | null;
  proposals: number;
  openProposals: number;
};
const rows: Row[] = (await get('/api/loads/shipper?pageSize=25', shipper)).json().data;
const live = rows.find(
  (row) =>
    row.tourId &&
    scenarios.some((scenario) => scenario.refNumber === LIVE_REF_NUMBER) &&
    row.statusName === 'In Transit',
)!;

t.test("the shipper's table shows a shipment in every status", async (t) => {
  t.ok(accountsSeeded, 'the demo accounts');
  t.ok(marketplaceSeeded, `the demo marketplace, seeded in ${seedMs} ms`);
  t.equal(rows.length, scenarios.filter((scenario) => scenario.shipper === 'shipper1').length);
  const names = new Set(rows.map((row) => row.statusName));
  for (const name of [
    'Created',
    'Bid Submitted',
    'Paused',
    'Canceled',
    'Bid Accepted',
    'Carrier Confirmed',
    'Ready for pickup',
    'Dispatched',
    'In Transit',
    'Pending Delivery Confirmation',
    'Delivered',
  ]) {
    t.ok(names.has(name), `a shipment that is ${name}`);
  }
  t.ok(
    rows.some((row) => row.loadStatus === 9),
    'a Completed load',
  );
  t.ok(
    rows.some((row) => row.statusName === 'Created' && row.proposals === 0),
    'an open load without offers',
  );
  t.ok(
    rows.some((row) => row.statusName === 'Bid Submitted' && row.openProposals === 3),
    'an open load with three offers',
  );
});

t.test(
  'offers, a counter offer, a signed contract, chat, tour events, ratings and saved locations',
  async (t) => {
    const open = rows.find((row) => row.statusName === 'Bid Submitted')!;
    const offers = (await get(`/api/proposal/${open.id}?pageSize=25`, shipper)).json().data as {
      status: number;
      counterPrice: number | null;
    }[];
    t.ok(
      offers.some((offer) => offer.status === 11 && offer.counterPrice === 2800),
      'a counter offer waiting for the carrier',
    );

    const signed = rows.find((row) => row.statusName === 'Carrier Confirmed')!;
    const tour = (
      await app.inject({
        method: 'GET',
        url: `/api/tours/${signed.tourId}`,
        headers: bearer(shipper),
      })
    ).json();
    t.ok(tour.contractFileId, 'the contract is uploaded');
    const contract = await app.inject({
      method: 'GET',
      url: `/api/files/${tour.contractFileId}`,
      headers: bearer(shipper),
    });
    if (contract.statusCode === 200)
      t.equal(contract.rawPayload.subarray(0, 5).toString(), '%PDF-', 'a PDF');
    else t.comment(`GET files/${tour.contractFileId} as the shipper: ${contract.statusCode}`);

    const chat = (await get(`/api/tours/${live.tourId}/chat`, shipper)).json();
    t.ok(chat.length >= 3, `${chat.length} chat messages on the live tour`);
    const events = (await get(`/api/tours/${live.tourId}/events`, shipper)).json() as {
      type: string;
      message: string;
    }[];
    t.ok(
      events.some((event) => event.type === 'arrived'),
      'the geofence saw the truck at the dock',
    );
    t.ok(
      events.some((event) => event.type === 'note'),
      'a note from the driver',
    );

    const delivered = rows.filter((row) => row.statusName === 'Delivered');
    const ratings = await Promise.all(
      delivered.map(async (row) => (await get(`/api/tours/rating/${row.tourId}`, shipper)).json()),
    );
    t.ok(
      ratings.some((rating) => rating.mine && rating.theirs),
      'a delivered shipment rated by both sides',
    );
    t.ok(
      ratings.some((rating) => rating.mine === null),
      'and one the shipper has still to rate',
    );

    const saved = (await get('/api/loads/list/getSavedLocations', shipper)).json() as {
      name: string;
    }[];
    t.same(saved.map((location) => location.name).sort(), [
      'Prairie Foods Chicago DC',
      'Prairie Foods St. Louis Plant',
    ]);
    const invoices = (await get('/api/invoices?pageSize=100', shipper)).json() as {
      data: { number: string; status: string; loadGuid: string; carrier: string }[];
    };
    // Beside the year of invoices behind the days-to-pay figures (loads HIST-…), the demo's own
    // delivered loads have theirs.
    t.same(
      invoices.data
        .filter((row) => !row.loadGuid.startsWith('HIST-'))
        .map((row) => row.status)
        .sort(),
      ['scheduled', 'submitted'],
      "shipper1's invoices of its delivered loads: one waiting for it, one scheduled",
    );
    t.equal(
      new Set(invoices.data.map((row) => `${row.carrier} ${row.number}`)).size,
      invoices.data.length,
      'no carrier numbers two invoices alike',
    );
    const marketplace = (await get('/api/loads/carrier?pageSize=25', carrier)).json();
    t.ok(
      marketplace.total >= 4,
      `carrier1 finds ${marketplace.total} open loads on the marketplace`,
    );
    t.equal(
      (await get('/api/tours/assigned', driver))
        .json()
        .data.filter((row: { status: number }) => row.status === 9).length,
      1,
      "the driver's tour in transit",
    );
  },
);

t.test('the live truck moves along its road, tick after tick', async (t) => {
  const track = async () => (await get(`/api/tours/track/${live.tourId}`, shipper)).json();
  const before = await track();
  t.equal(before.trail.length, 1, 'parked at the dock');
  // The ticker's clock, from the moment the truck was at the dock.
  const base = Date.parse(before.lastPosition.recordedAt);
  let offset = 0;
  const ticker = startDemoTicker(platform, { now: () => base + offset, timer: false });
  t.teardown(() => ticker.stop());

  offset = 60_000;
  const recorded = await ticker.tick();
  t.equal(recorded, 6, 'a position every ten seconds of the minute that passed');
  await platform.runner.waitFor(
    ['tourPositions', 'marketplace'],
    await platform.store.committedHead(),
  );
  const after = await track();
  t.equal(after.trail.length, 7, 'the trail grew');
  t.ok(
    after.lastPosition.latitude < before.lastPosition.latitude,
    'heading south, towards St. Louis',
  );
  t.equal(after.lastPosition.speed, 55);
  t.ok(
    after.eta && after.eta.remainingMiles > 700,
    `ETA ${after.eta?.at}, ${after.eta?.remainingMiles} miles left`,
  );
  const events = (await get(`/api/tours/${live.tourId}/events`, shipper)).json() as {
    type: string;
    message: string;
  }[];
  t.ok(
    events.some(
      (event) => event.type === 'departed' && /Prairie Foods Chicago DC/.test(event.message),
    ),
    'the geofence saw the truck leave the dock',
  );

  t.equal(await ticker.tick(), 0, 'nothing new within the same moment');
  offset = 70_000;
  t.equal(await ticker.tick(), 1);

  // A restart ten minutes later: a new ticker finds the tour and its start, and fills the gap.
  await ticker.stop();
  await platform.runner.waitFor(['tourPositions'], await platform.store.committedHead());
  const restarted = startDemoTicker(platform, { now: () => base + 10 * 60_000, timer: false });
  t.teardown(() => restarted.stop());
  t.equal(await restarted.tick(), 53, 'the positions of the 530 seconds it missed');
  await platform.runner.waitFor(['tourPositions'], await platform.store.committedHead());
  const later = await track();
  t.ok(later.trail.length > after.trail.length, `${later.trail.length} positions`);
  t.ok(Math.abs(later.lastPosition.latitude - 41.8117) > 0.05, 'about nine miles down the road');
});

t.test('a year of agreed prices on the main lanes, for the lane-rate charts', async (t) => {
  const atlanta = places.peachStateAtlanta;
  const chicago = places.prairieChicago;
  const url = `/api/insights/lanes?origin=${chicago.latitude},${chicago.longitude}&destination=${atlanta.latitude},${atlanta.longitude}&equipment=6`;
  const lane = (await get(url, shipper)).json();
  t.ok(lane.count >= 36, `${lane.count} agreed prices from Chicago to Atlanta on 53 ft dry vans`);
  t.ok(
    lane.price.p25 < lane.price.median && lane.price.median < lane.price.p75,
    `${lane.price.p25} < ${lane.price.median} < ${lane.price.p75}`,
  );
  t.ok(lane.perMile.median > 2 && lane.perMile.median < 3, `$${lane.perMile.median} a mile`);
  t.ok(
    lane.series.every((month: { median: number | null }) => month.median !== null),
    'a median in each of the twelve months',
  );
  const top = (await get('/api/insights/lanes/top', carrier)).json();
  t.ok(top.lanes.length >= 4, `${top.lanes.length} lanes`);
  t.ok(
    top.lanes
      .slice(0, 2)
      .every((row: { series: { medianPerMile: number | null }[] }) =>
        row.series.every((month) => month.medianPerMile !== null),
      ),
    'the two busiest have a median every month',
  );
});

t.test('a fast, a slow and a new payer on the marketplace, and aging for both sides', async (t) => {
  const board = (await get('/api/loads/carrier?pageSize=100', carrier)).json();
  const payerOf = (name: string) =>
    board.data.find((row: { shipper: string }) => row.shipper === name)?.payer;
  const fast = payerOf('Prairie Foods Inc.');
  const slow = payerOf('Gulf Coast Chemicals');
  t.match(fast, { status: 'measured' });
  t.ok(fast.medianDaysToPay >= 7 && fast.medianDaysToPay <= 13, `${fast.medianDaysToPay} days`);
  t.match(slow, { status: 'measured' });
  t.ok(slow.medianDaysToPay >= 36 && slow.medianDaysToPay <= 56, `${slow.medianDaysToPay} days`);
  t.ok(slow.paidWithinTermsShare < 0.5, 'the slow payer is late on most');
  t.same(payerOf('Lakefront Dairy Co-op'), {
    medianDaysToPay: null,
    paidWithinTermsShare: null,
    status: 'new',
  });
  const fastOnly = (await get('/api/loads/carrier?pageSize=100&maxDaysToPay=15', carrier)).json();
  t.same(
    [...new Set(fastOnly.data.map((row: { shipper: string }) => row.shipper))],
    ['Prairie Foods Inc.'],
    'within 15 days: the fast payer only',
  );
  const receivables = (await get('/api/insights/aging', carrier)).json();
  t.equal(receivables.side, 'receivable');
  t.ok(
    receivables.buckets.filter((bucket: { count: number }) => bucket.count > 0).length >= 2,
    'current and overdue receivables',
  );
  const slowShipper = await signIn(app, demoEmail('shipper2'), DEMO_PASSWORD);
  const payables = (await get('/api/insights/aging', slowShipper)).json();
  t.equal(payables.side, 'payable');
  t.ok(
    payables.buckets.find((bucket: { label: string }) => bucket.label === '90+').count > 0,
    'payables over 90 days past due',
  );
});

t.test("the demo carriers' DOT numbers are active in the demo FMCSA file", async (t) => {
  const profile = (await get('/api/profile', carrier)).json();
  const organizationId = profile.organization.id;
  const authority = await get(`/api/organizations/${organizationId}/authority`, carrier);
  t.equal(authority.statusCode, 200);
  t.match(authority.json(), {
    dotNumber: 2345671,
    mcNumber: 712345,
    status: 'active',
    insuranceOnFile: true,
    source: 'import',
  });
});

t.test(
  'trust flags: one Protected load (released at the dock), one Flagged (no tractor number), every other ready',
  async (t) => {
    type TrustRow = {
      id: string;
      refNumber: string;
      trust: { state: string; reasons: { code: string }[] };
    };
    const all = async (token: string) => {
      const found: TrustRow[] = [];
      for (let page = 1; ; page++) {
        const answer = (await get(`/api/loads/shipper?pageSize=100&page=${page}`, token)).json();
        found.push(...answer.data);
        if (page >= answer.totalPages) return found;
      }
    };
    const shipper2 = await signIn(app, demoEmail('shipper2'), DEMO_PASSWORD);
    const loads = [...(await all(shipper)), ...(await all(shipper2))];
    t.ok(loads.length > rows.length, `${loads.length} demo loads, the lane history's among them`);
    const notReady = loads
      .filter((row) => row.trust.state !== 'ready' || row.trust.reasons.length > 0)
      .map((row) => ({
        refNumber: row.refNumber,
        state: row.trust.state,
        codes: row.trust.reasons.map((reason) => reason.code),
      }))
      .sort((a, b) => a.refNumber.localeCompare(b.refNumber));
    t.same(notReady, [
      { refNumber: 'PO-77112', state: 'flagged', codes: ['no_tractor_number'] },
      { refNumber: LIVE_REF_NUMBER, state: 'protected', codes: [] },
    ]);
    const flagged = loads.find((row) => row.refNumber === 'PO-77112')!;
    t.match((await get(`/api/loads/${flagged.id}`, shipper)).json().trust, {
      state: 'flagged',
      reasons: [
        { code: 'no_tractor_number', text: 'The driver was assigned without a tractor number' },
      ],
    });
    // No offer the shipper weighs carries a flag either: the demo carriers are active, insured, with trucks to spare.
    for (const row of loads.filter((load) => load.refNumber.startsWith('PO-'))) {
      const offers = (await get(`/api/proposal/${row.id}?pageSize=25`, shipper)).json().data as {
        trust?: { state: string };
      }[];
      for (const offer of offers)
        t.equal(offer.trust?.state, 'ready', `an offer on ${row.refNumber}`);
    }
  },
);

t.test('accessorial terms on the loads and claims a newcomer sees at once', async (t) => {
  const load = (await get(`/api/loads/${rows[0]!.id}`, shipper)).json();
  t.match(load.terms, { freeTimeHours: { pickup: 2, delivery: 2 }, disputeWindowHours: 48 });
  const claims = [];
  for (const row of rows.filter((entry) => entry.tourId))
    claims.push(...(await get(`/api/tours/${row.tourId}/claims`, shipper)).json());
  const detention = claims.filter((claim: { kind: string }) => claim.kind === 'detention');
  t.ok(
    detention.some((claim: { status: string }) => claim.status === 'approved'),
    'an approved detention claim',
  );
  t.ok(
    detention.some((claim: { status: string }) => claim.status === 'disputed'),
    'a disputed detention claim',
  );
  t.ok(
    detention.every(
      (claim: { evidence: { positionsInside: unknown[]; arrivedAt: string | null } }) =>
        claim.evidence.arrivedAt && claim.evidence.positionsInside.length > 0,
    ),
    'each with its evidence',
  );
  const lumper = claims.find((claim: { kind: string }) => claim.kind === 'lumper');
  t.ok(lumper?.evidence.receiptFileId, 'a lumper receipt');
  const carrierTours = (await get('/api/loads/carrier?pageSize=1', carrier)).statusCode;
  t.equal(carrierTours, 200);
  const tonu = await platform.database.db
    .selectFrom('claims_view')
    .select(['kind', 'status', 'amount'])
    .where('kind', '=', 'tonu')
    .execute();
  t.equal(tonu.length, 1, 'a TONU');
});

t.test("the history's busy facilities show figures, tags and a reply", async (t) => {
  const joliet = await facilityAt(platform.database.db, historyPlaces.jolietTerminal);
  t.ok(joliet, 'the Joliet terminal is a facility');
  const page = (await get(`/api/facilities/${joliet}`, carrier)).json();
  t.ok(page.visits >= 3, `${page.visits} visits measured`);
  t.ok(page.timeOnSite.median > 0 && page.timeOnSite.p75 >= page.timeOnSite.median);
  t.ok(page.onTimeShare !== null && page.detentionShare !== null);
  t.ok(page.byWeekday.length > 0);
  t.ok(
    page.tags.some((tag: { count: number }) => tag.count > 0),
    'tagged by drivers',
  );
  t.equal(page.replies.length, 1, "the shipper's reply");
});

t.test('a second seed adds nothing', async (t) => {
  const head = await platform.store.head();
  t.equal(await seedMarketplaceDemo(platform), false);
  t.same(await platform.store.head(), head, 'not one event more');
  t.equal((await get('/api/loads/shipper?pageSize=25', shipper)).json().total, rows.length);
});
