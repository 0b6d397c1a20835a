// @postgres: lane-rate medians and percentiles computed in SQL
/**
 * Lane rates over HTTP on the real app: agreed prices of accepted offers only, the radius and
 * equipment filters, the threshold of five (whole lane, per month and in the busiest lanes), figures
 * rounded to $25 and $0.05 a mile so no single agreed price can be worked out, prices per mile, the
 * busiest lanes, who may ask and the 400s naming the field.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { GenericStatus } from '../../domain/catalog.ts';
import { permissionsFor, Role, type RoleId } from '../../domain/permissions.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { laneMiles } from '../../projections/laneRates/laneRates.projection.ts';
import type { Caller } from '../commands/caller.ts';
import type { Actor } from '../http/auth.ts';
import { member, organization, superadmin, type Member } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester, type Sender } from '../testing/http.ts';
import { CHICAGO, GARY, INDIANAPOLIS, LOS_ANGELES, loadBody, stop } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';
import { monthWindow } from './laneRates.routes.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const otherCarrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
const pendingShipper = await organization(app, platform, 'Shipper', { status: 1 });
const pendingCarrier = await organization(app, platform, 'Carrier', { status: 1 });

const callerOf = (user: Member, roleId: RoleId): Caller => {
  const actor: Actor = {
    userId: user.userId,
    organizationId: user.organizationId,
    roleId,
    permissions: permissionsFor(roleId),
    sessionId: randomUUID(),
  };
  return { actor, requestId: randomUUID() };
};
const asShipper = callerOf(shipper, Role.Shipper);
const asCarrier = callerOf(carrier, Role.Carrier);
const asOther = callerOf(otherCarrier, Role.Carrier);
const { marketplace } = platform;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
type Place = typeof CHICAGO;
/** Mid-month, `back` months before the current one (UTC), at noon. */
const monthsAgo = (back: number) => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 10, 12);
};
const nowMonth = monthWindow(1).months[0]!;

/** A load posted, offered on by two carriers and (unless `accept` is false) agreed at `price` with the first, all at `at`. */
async function agreed(
  price: number,
  options: { from?: Place; to?: Place; equipment?: number[]; at?: number; accept?: boolean } = {},
) {
  const at = options.at ?? Date.now() - HOUR;
  const iso = (ms: number) => new Date(ms).toISOString();
  const body = loadBody({
    pickupTimestampStart: iso(at + 2 * DAY),
    dropOffTimestampStart: iso(at + 3 * DAY),
    expiration: iso(at + DAY),
    loadEquipment: options.equipment ?? [5],
    locations: [
      stop(options.from ?? CHICAGO, 1, 'Acme Paper Mill'),
      stop(options.to ?? INDIANAPOLIS, 4, 'Hoosier Print Works'),
    ],
  });
  const { id: loadId } = await marketplace.postLoad(
    asShipper,
    loadBodySchema(iso(at)).parse(body),
    iso(at),
  );
  const winner = await marketplace.submitOffer(
    asCarrier,
    loadId,
    { price, message: '', eldTruckName: null },
    iso(at + 60_000),
  );
  const loser = await marketplace.submitOffer(
    asOther,
    loadId,
    { price: price + 500, message: '', eldTruckName: null },
    iso(at + 120_000),
  );
  if (options.accept !== false) {
    await platform.runner.waitFor(['marketplace'], loser.position, 10_000);
    await marketplace.changeOffer(
      asShipper,
      winner.id,
      { status: GenericStatus.Accepted, message: '', price: null },
      iso(at + 180_000),
    );
  }
  await platform.runner.waitFor(['laneRates'], await platform.store.committedHead(), 10_000);
  return loadId;
}

const point = (place: Place) => `${place.latitude},${place.longitude}`;
const as = requester(app);
const lanes = (sender: Sender, query: Record<string, string | number>) =>
  as(sender).get('/api/insights/lanes', query);
const chicagoToIndy = { origin: point(CHICAGO), destination: point(INDIANAPOLIS) };
const NULLS = { p25: null, median: null, p75: null };
const miles = laneMiles({ stops: [CHICAGO, INDIANAPOLIS] });
/** The figures as answered: prices to the nearest $25, prices per mile to the nearest $0.05. */
const dollars = (price: number) => Math.round(price / 25) * 25;
const perMile = (price: number) => Math.round((price / miles) * 20) / 20;
/** Every number of an answer that is a figure (not a count, a coordinate or a month). */
const figuresOf = (body: {
  price?: object;
  perMile?: object;
  series?: { median?: number | null; medianPerMile?: number | null }[];
}): (number | null)[] => [
  ...Object.values(body.price ?? {}),
  ...Object.values(body.perMile ?? {}),
  ...(body.series ?? []).map((row) => row.median ?? row.medianPerMile ?? null),
];

t.test(
  'only accepted offers count, and three, then four agreed prices show no figure at all',
  async (t) => {
    const empty = await lanes(shipper.token, chicagoToIndy);
    t.equal(empty.status, 200, empty.text);
    t.same(empty.body, { ...empty.body, count: 0, price: NULLS, perMile: NULLS });
    t.equal(empty.body.series.length, 12, 'twelve months');
    t.equal(empty.body.series.at(-1).month, nowMonth, 'ending with this one');

    await agreed(1010);
    await agreed(1290);
    await agreed(1120);
    await agreed(9000, { accept: false });
    const three = (await lanes(shipper.token, chicagoToIndy)).body;
    t.equal(three.count, 3, 'the three agreed prices; neither the losing offers nor the open load');
    t.same(three.price, NULLS, 'fewer than five: no price');
    t.same(three.perMile, NULLS, 'nor a price per mile');
    t.same(
      three.series.at(-1),
      { month: nowMonth, count: 3, median: null },
      'nor a median this month',
    );
    t.ok(
      figuresOf(three).every((figure) => figure === null),
      'no figure anywhere',
    );

    await agreed(1230);
    const four = (await lanes(shipper.token, chicagoToIndy)).body;
    t.equal(four.count, 4);
    t.same([four.price, four.perMile], [NULLS, NULLS], 'four: still no figure');
    t.same(four.series.at(-1), { month: nowMonth, count: 4, median: null });
    t.ok(
      figuresOf(four).every((figure) => figure === null),
      'no figure anywhere',
    );
  },
);

t.test(
  'five agreed prices give quartiles of the price and of the price per mile, rounded',
  async (t) => {
    await agreed(1160);
    const body = (await lanes(carrier.token, chicagoToIndy)).body;
    t.equal(body.count, 5);
    // 1010, 1120, 1160, 1230, 1290: percentile_cont's quartiles are 1120, 1160 and 1230.
    t.same(body.price, { p25: 1125, median: 1150, p75: 1225 }, 'to the nearest $25');
    t.same(
      body.perMile,
      { p25: perMile(1120), median: perMile(1160), p75: perMile(1230) },
      `to the nearest $0.05 over ${miles} road miles`,
    );
    for (const figure of Object.values(body.perMile) as number[])
      t.equal(Math.round(figure * 100) % 5, 0, `${figure} a mile is a multiple of $0.05`);
    t.ok(miles > 165 && miles < 250, `${miles} miles from Chicago to Indianapolis by road`);
    t.same(body.series.at(-1), { month: nowMonth, count: 5, median: 1150 });
    t.same(
      (await lanes(admin.token, chicagoToIndy)).body,
      body,
      'the Superadmin sees the same figures',
    );
  },
);

t.test('no agreed price can be worked out of the figures', async (t) => {
  const phoenix = {
    ...LOS_ANGELES,
    address: 'Phoenix, AZ',
    city: 'Phoenix',
    state: 'AZ',
    latitude: 33.4484,
    longitude: -112.074,
  };
  const tucson = {
    ...LOS_ANGELES,
    address: 'Tucson, AZ',
    city: 'Tucson',
    state: 'AZ',
    latitude: 32.2226,
    longitude: -110.9747,
  };
  const query = { origin: point(phoenix), destination: point(tucson), radius: 20 };
  const prices = [1013, 1137, 1262];
  for (const price of prices) await agreed(price, { from: phoenix, to: tucson });
  // Three prices answered p25 1075, median 1137, p75 1199.5: 2·p25 − median and 2·p75 − median gave
  // back the lowest and the highest, and the median the third.
  const three = (await lanes(shipper.token, query)).body;
  t.equal(three.count, 3);
  t.ok(
    figuresOf(three).every((figure) => figure === null),
    'three: nothing to work from',
  );

  for (const price of [1388, 1511]) await agreed(price, { from: phoenix, to: tucson });
  prices.push(1388, 1511);
  const five = (await lanes(shipper.token, query)).body;
  t.equal(five.count, 5);
  t.same(
    five.price,
    { p25: 1125, median: 1250, p75: 1400 },
    'quartiles 1137, 1262 and 1388 to the nearest $25',
  );
  const { p25, median, p75 } = five.price;
  const guesses = [
    p25,
    median,
    p75,
    2 * p25 - median,
    2 * p75 - median,
    2 * median - p25,
    2 * median - p75,
  ];
  t.same(
    guesses.filter((guess) => prices.includes(guess)),
    [],
    `${guesses.join(', ')}: none is an agreed price`,
  );
  const top = (await as(shipper).get('/api/insights/lanes/top', { limit: '20' })).body;
  const listed = top.lanes.find(
    (lane: { origin: { city: string } }) => lane.origin.city === 'Phoenix',
  );
  t.equal(listed?.medianPrice, 1250, 'the busiest lanes round the same way');
  t.notOk(prices.includes(listed?.medianPrice), 'not an agreed price');
});

t.test(
  'the series: a month with four agreed prices has no median, one with five has',
  async (t) => {
    for (const price of [890, 960, 1010, 1040, 1390]) await agreed(price, { at: monthsAgo(2) });
    for (const price of [800, 820, 850, 870]) await agreed(price, { at: monthsAgo(5) });
    await agreed(500, { at: monthsAgo(13) });
    const body = (await lanes(shipper.token, chicagoToIndy)).body;
    const window = monthWindow(12).months;
    t.same(
      body.series.map((row: { month: string }) => row.month),
      window,
      'every month of the window, oldest first',
    );
    const of = (back: number) =>
      body.series.find((row: { month: string }) => row.month === monthWindow(back + 1).months[0]);
    t.same(of(2), { month: monthWindow(3).months[0], count: 5, median: dollars(1010) });
    t.same(of(5), { month: monthWindow(6).months[0], count: 4, median: null });
    t.equal(body.count, 14, 'the agreed price of 13 months ago is outside the twelve months');
    t.equal(
      (await lanes(shipper.token, { ...chicagoToIndy, months: 24 })).body.count,
      15,
      'and inside 24',
    );
    t.equal((await lanes(shipper.token, { ...chicagoToIndy, months: 1 })).body.series.length, 1);
  },
);

t.test('radius and equipment filters', async (t) => {
  const before = (await lanes(shipper.token, chicagoToIndy)).body.count;
  for (const price of [700, 750, 800]) await agreed(price, { from: GARY });
  await agreed(4000, { to: LOS_ANGELES });
  for (const price of [1500, 1560, 1600, 1640, 1700]) await agreed(price, { equipment: [15] });
  const wide = (await lanes(shipper.token, chicagoToIndy)).body;
  t.equal(
    wide.count,
    before + 8,
    'Gary is within 100 miles of Chicago; Los Angeles is not near Indianapolis',
  );
  t.equal(
    (await lanes(shipper.token, { ...chicagoToIndy, radius: 10 })).body.count,
    before + 5,
    'within 10 miles Gary (about 25 away) is left out',
  );
  const reefer = (await lanes(shipper.token, { ...chicagoToIndy, equipment: 15 })).body;
  t.equal(reefer.count, 5, 'only the reefer loads');
  t.same(reefer.price, { p25: 1550, median: 1600, p75: 1650 }, '1560 and 1640 to the nearest $25');
  t.equal(
    (await lanes(shipper.token, { ...chicagoToIndy, equipment: 5 })).body.count,
    before + 3,
    'only the 48 ft dry vans',
  );
  t.equal(
    (await lanes(shipper.token, { origin: point(CHICAGO), destination: point(LOS_ANGELES) })).body
      .count,
    1,
  );
  t.equal(
    (await lanes(shipper.token, { origin: point(INDIANAPOLIS), destination: point(CHICAGO) })).body
      .count,
    0,
    'a lane has a direction',
  );
});

t.test('a load cancelled after its acceptance takes its agreed price out', async (t) => {
  const far = {
    ...LOS_ANGELES,
    address: 'Phoenix, AZ',
    city: 'Phoenix',
    state: 'AZ',
    latitude: 33.4484,
    longitude: -112.074,
  };
  const loadId = await agreed(2000, { from: far, to: LOS_ANGELES });
  const query = { origin: point(far), destination: point(LOS_ANGELES) };
  t.equal((await lanes(shipper.token, query)).body.count, 1);
  await marketplace.cancelLoad(
    asShipper,
    loadId,
    'Customer called it off',
    new Date().toISOString(),
  );
  await platform.runner.waitFor(['laneRates'], await platform.store.committedHead(), 10_000);
  t.equal((await lanes(shipper.token, query)).body.count, 0);
});

t.test('the busiest lanes with their median price per mile per month', async (t) => {
  const response = await as(carrier).get('/api/insights/lanes/top', { months: '12' });
  t.equal(response.status, 200, response.text);
  const body = response.body;
  t.same(body.months, monthWindow(12).months);
  const first = body.lanes[0];
  t.match(
    first,
    {
      origin: { city: 'Chicago', state: 'IL' },
      destination: { city: 'Indianapolis', state: 'IN' },
    },
    'Chicago to Indianapolis first',
  );
  t.ok(
    body.lanes.every(
      (lane: { count: number }, index: number) =>
        index === 0 || lane.count <= body.lanes[index - 1].count,
    ),
    'most agreed prices first',
  );
  t.equal(first.series.length, 12);
  t.equal(
    first.series.at(-1).count,
    first.count - 5 - 4,
    'this month: all but those of two and five months ago',
  );
  t.equal(
    first.series.find((row: { month: string }) => row.month === monthWindow(6).months[0])
      .medianPerMile,
    null,
    'four in that month: no median',
  );
  t.equal(
    first.series.find((row: { month: string }) => row.month === monthWindow(3).months[0])
      .medianPerMile,
    perMile(1010),
    'five: a median, to the nearest $0.05',
  );
  t.ok(
    body.lanes.every(
      (lane: { count: number; medianPrice: number }) =>
        lane.count >= 5 && lane.medianPrice % 25 === 0,
    ),
    'every lane listed has five agreed prices and a median to the nearest $25',
  );
  const cities = body.lanes.map(
    (lane: { origin: { city: string }; destination: { city: string } }) =>
      `${lane.origin.city} > ${lane.destination.city}`,
  );
  t.notOk(
    cities.includes('Chicago > Los Angeles'),
    'one agreed price to Los Angeles: the lane is not listed, not even without figures',
  );
  t.notOk(cities.includes('Gary > Indianapolis'), 'nor Gary with three');
  const all = (await as(carrier).get('/api/insights/lanes/top', { limit: '20' })).body;
  t.ok(
    all.lanes.length < 20 && all.lanes.every((lane: { count: number }) => lane.count >= 5),
    'with room for twenty, still only the lanes with five',
  );
  t.equal((await as(shipper).get('/api/insights/lanes/top', { limit: '1' })).body.lanes.length, 1);
});

t.test(
  'who may ask: shipper and carrier users of Active organizations and the Superadmin',
  async (t) => {
    const events = await watchEvents(platform.store);
    t.equal((await lanes(null, chicagoToIndy)).status, 401);
    const asDriver = await lanes(driver.token, chicagoToIndy);
    t.equal(asDriver.status, 403, 'a driver has no lane rates');
    for (const pending of [pendingShipper, pendingCarrier]) {
      const answer = await lanes(pending.token, chicagoToIndy);
      t.equal(answer.status, 403);
      t.equal(answer.body.message, 'Your organization is not active yet');
      t.equal((await as(pending).get('/api/insights/lanes/top')).status, 403);
    }
    t.equal((await as(driver).get('/api/insights/lanes/top')).status, 403);
    t.equal((await as(admin).get('/api/insights/lanes/top')).status, 200);
    await events.expect(t, [], { message: 'the refusals and the read appended nothing' });
  },
);

t.test('a bad query is a 400 naming the field', async (t) => {
  const events = await watchEvents(platform.store);
  const cases: [Record<string, string | number>, string][] = [
    [{ destination: chicagoToIndy.destination }, 'origin'],
    [{ origin: chicagoToIndy.origin }, 'destination'],
    [{ ...chicagoToIndy, origin: 'Chicago' }, 'origin'],
    [{ ...chicagoToIndy, destination: '91,10' }, 'destination'],
    [{ ...chicagoToIndy, origin: '41.8,-187' }, 'origin'],
    [{ ...chicagoToIndy, radius: 0 }, 'radius'],
    [{ ...chicagoToIndy, radius: 'far' }, 'radius'],
    [{ ...chicagoToIndy, radius: 501 }, 'radius'],
    [{ ...chicagoToIndy, equipment: 9999 }, 'equipment'],
    [{ ...chicagoToIndy, equipment: 'van' }, 'equipment'],
    [{ ...chicagoToIndy, months: 0 }, 'months'],
    [{ ...chicagoToIndy, months: 25 }, 'months'],
    [{ ...chicagoToIndy, months: 1.5 }, 'months'],
  ];
  for (const [query, field] of cases) {
    const answer = await lanes(shipper.token, query);
    t.equal(answer.status, 400, `${JSON.stringify(query)}: ${answer.text}`);
    t.same(
      answer.body.errors?.map((error: { path: string }) => error.path),
      [field],
      `names ${field}`,
    );
    await events.expect(t, [], { message: `${JSON.stringify(query)}: nothing written` });
  }
  for (const query of ['months=0', 'limit=0', 'limit=21', 'months=x']) {
    const answer = await as(shipper).get(`/api/insights/lanes/top?${query}`);
    t.equal(answer.status, 400, query);
    t.same(
      answer.body.errors?.map((error: { path: string }) => error.path),
      [query.split('=')[0]],
    );
    await events.expect(t, [], { message: `top?${query}: nothing written` });
  }
});
