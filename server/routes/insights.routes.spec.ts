/**
 * Lane rates over HTTP on the real app: agreed prices of accepted offers only, the radius and
 * equipment filters, the threshold of three (whole lane and per month), prices per mile, the busiest
 * lanes, who may ask and the 400s naming the field.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { GenericStatus } from '../../domain/catalog.ts';
import { permissionsFor, Role, type RoleId } from '../../domain/permissions.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { laneMiles } from '../../projections/laneRates/laneRates.projection.ts';
import type { Caller } from '../commands/caller.ts';
import type { Actor } from '../http/auth.ts';
import { bearer, member, organization, superadmin, type Member } from '../identity/fixtures.ts';
import { CHICAGO, GARY, INDIANAPOLIS, LOS_ANGELES, loadBody, stop } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';
import { monthWindow } from './insights.routes.ts';

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
  const actor: Actor = { userId: user.userId, organizationId: user.organizationId, roleId, permissions: permissionsFor(roleId), sessionId: randomUUID() };
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
const monthsAgo = (back: number) => { const now = new Date(); return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 10, 12); };
const nowMonth = monthWindow(1).months[0]!;

/** A load posted, offered on by two carriers and (unless `accept` is false) agreed at `price` with the first, all at `at`. */
async function agreed(price: number, options: { from?: Place; to?: Place; equipment?: number[]; at?: number; accept?: boolean } = {}) {
  const at = options.at ?? Date.now() - HOUR;
  const iso = (ms: number) => new Date(ms).toISOString();
  const body = loadBody({
    pickupTimestampStart: iso(at + 2 * DAY), dropOffTimestampStart: iso(at + 3 * DAY), expiration: iso(at + DAY),
    loadEquipment: options.equipment ?? [5],
    locations: [stop(options.from ?? CHICAGO, 1, 'Acme Paper Mill'), stop(options.to ?? INDIANAPOLIS, 4, 'Hoosier Print Works')],
  });
  const { id: loadId } = await marketplace.postLoad(asShipper, loadBodySchema(iso(at)).parse(body), iso(at));
  const winner = await marketplace.submitProposal(asCarrier, loadId, { price, message: '', eldTruckName: null }, iso(at + 60_000));
  const loser = await marketplace.submitProposal(asOther, loadId, { price: price + 500, message: '', eldTruckName: null }, iso(at + 120_000));
  if (options.accept !== false) {
    await platform.runner.waitFor(['marketplace'], loser.position, 10_000);
    await marketplace.changeProposal(asShipper, winner.id, { status: GenericStatus.Accepted, message: '', price: null }, iso(at + 180_000));
  }
  await platform.runner.waitFor(['laneRates'], await platform.store.committedHead(), 10_000);
  return loadId;
}

const point = (place: Place) => `${place.latitude},${place.longitude}`;
const lanes = (token: string | null, query: Record<string, string | number>) => app.inject({
  method: 'GET', url: `/api/insights/lanes?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`,
  headers: token ? bearer(token) : {},
});
const chicagoToIndy = { origin: point(CHICAGO), destination: point(INDIANAPOLIS) };
const NULLS = { p25: null, median: null, p75: null };
const miles = laneMiles({ stops: [CHICAGO, INDIANAPOLIS] });

t.test('only accepted offers count, and two agreed prices show no figures', async (t) => {
  const empty = await lanes(shipper.token, chicagoToIndy);
  t.equal(empty.statusCode, 200, empty.body);
  t.same(empty.json(), { ...empty.json(), count: 0, price: NULLS, perMile: NULLS });
  t.equal(empty.json().series.length, 12, 'twelve months');
  t.equal(empty.json().series.at(-1).month, nowMonth, 'ending with this one');

  await agreed(1000);
  await agreed(1300);
  await agreed(9000, { accept: false });
  const two = (await lanes(shipper.token, chicagoToIndy)).json();
  t.equal(two.count, 2, 'the two agreed prices; neither the losing offers nor the open load');
  t.same(two.price, NULLS, 'fewer than three: no price');
  t.same(two.perMile, NULLS, 'nor a price per mile');
  t.same(two.series.at(-1), { month: nowMonth, count: 2, median: null });
});

t.test('three agreed prices give quartiles of the price and of the price per mile', async (t) => {
  await agreed(1100);
  const body = (await lanes(carrier.token, chicagoToIndy)).json();
  t.equal(body.count, 3);
  t.same(body.price, { p25: 1050, median: 1100, p75: 1200 }, 'interpolated by percentile_cont');
  const perMile = (price: number) => Math.round((price / miles) * 100) / 100;
  t.same(body.perMile, { p25: perMile(1050), median: perMile(1100), p75: perMile(1200) }, `over ${miles} road miles`);
  t.ok(miles > 165 && miles < 250, `${miles} miles from Chicago to Indianapolis by road`);
  t.same(body.series.at(-1), { month: nowMonth, count: 3, median: 1100 });
  t.same((await lanes(admin.token, chicagoToIndy)).json(), body, 'the Superadmin sees the same figures');
});

t.test('the series: a month with two agreed prices has no median, one with three has', async (t) => {
  for (const price of [900, 1000, 1400]) await agreed(price, { at: monthsAgo(2) });
  for (const price of [800, 850]) await agreed(price, { at: monthsAgo(5) });
  await agreed(500, { at: monthsAgo(13) });
  const body = (await lanes(shipper.token, chicagoToIndy)).json();
  const window = monthWindow(12).months;
  t.same(body.series.map((row: { month: string }) => row.month), window, 'every month of the window, oldest first');
  const of = (back: number) => body.series.find((row: { month: string }) => row.month === monthWindow(back + 1).months[0]);
  t.same(of(2), { month: monthWindow(3).months[0], count: 3, median: 1000 });
  t.same(of(5), { month: monthWindow(6).months[0], count: 2, median: null });
  t.equal(body.count, 8, 'the agreed price of 13 months ago is outside the twelve months');
  t.equal((await lanes(shipper.token, { ...chicagoToIndy, months: 24 })).json().count, 9, 'and inside 24');
  t.equal((await lanes(shipper.token, { ...chicagoToIndy, months: 1 })).json().series.length, 1);
});

t.test('radius and equipment filters', async (t) => {
  const before = (await lanes(shipper.token, chicagoToIndy)).json().count;
  for (const price of [700, 750, 800]) await agreed(price, { from: GARY });
  await agreed(4000, { to: LOS_ANGELES });
  for (const price of [1500, 1600, 1700]) await agreed(price, { equipment: [15] });
  const wide = (await lanes(shipper.token, chicagoToIndy)).json();
  t.equal(wide.count, before + 6, 'Gary is within 100 miles of Chicago; Los Angeles is not near Indianapolis');
  t.equal((await lanes(shipper.token, { ...chicagoToIndy, radius: 10 })).json().count, before + 3, 'within 10 miles Gary (about 25 away) is left out');
  const reefer = (await lanes(shipper.token, { ...chicagoToIndy, equipment: 15 })).json();
  t.equal(reefer.count, 3, 'only the reefer loads');
  t.same(reefer.price, { p25: 1550, median: 1600, p75: 1650 });
  t.equal((await lanes(shipper.token, { ...chicagoToIndy, equipment: 5 })).json().count, before + 3, 'only the 48 ft dry vans');
  t.equal((await lanes(shipper.token, { origin: point(CHICAGO), destination: point(LOS_ANGELES) })).json().count, 1);
  t.equal((await lanes(shipper.token, { origin: point(INDIANAPOLIS), destination: point(CHICAGO) })).json().count, 0, 'a lane has a direction');
});

t.test('a load cancelled after its acceptance takes its agreed price out', async (t) => {
  const far = { ...LOS_ANGELES, address: 'Phoenix, AZ', city: 'Phoenix', state: 'AZ', latitude: 33.4484, longitude: -112.074 };
  const loadId = await agreed(2000, { from: far, to: LOS_ANGELES });
  const query = { origin: point(far), destination: point(LOS_ANGELES) };
  t.equal((await lanes(shipper.token, query)).json().count, 1);
  await marketplace.cancelLoad(asShipper, loadId, 'Customer called it off', new Date().toISOString());
  await platform.runner.waitFor(['laneRates'], await platform.store.committedHead(), 10_000);
  t.equal((await lanes(shipper.token, query)).json().count, 0);
});

t.test('the busiest lanes with their median price per mile per month', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/api/insights/lanes/top?months=12', headers: bearer(carrier.token) });
  t.equal(response.statusCode, 200, response.body);
  const body = response.json();
  t.same(body.months, monthWindow(12).months);
  const first = body.lanes[0];
  t.match(first, { origin: { city: 'Chicago', state: 'IL' }, destination: { city: 'Indianapolis', state: 'IN' } }, 'Chicago to Indianapolis first');
  t.ok(body.lanes.every((lane: { count: number }, index: number) => index === 0 || lane.count <= body.lanes[index - 1].count), 'most agreed prices first');
  t.equal(first.series.length, 12);
  t.equal(first.series.at(-1).count, first.count - 3 - 2, 'this month: all but those of two and five months ago');
  t.equal(first.series.find((row: { month: string }) => row.month === monthWindow(6).months[0]).medianPerMile, null, 'two in that month: no median');
  t.equal(first.series.find((row: { month: string }) => row.month === monthWindow(3).months[0]).medianPerMile, Math.round((1000 / miles) * 100) / 100);
  const losAngeles = body.lanes.find((lane: { destination: { city: string } }) => lane.destination.city === 'Los Angeles');
  t.match(losAngeles, { count: 1, medianPrice: null, medianPerMile: null }, 'one agreed price: no medians');
  t.equal((await app.inject({ method: 'GET', url: '/api/insights/lanes/top?limit=1', headers: bearer(shipper.token) })).json().lanes.length, 1);
});

t.test('who may ask: shipper and carrier users of Active organizations and the Superadmin', async (t) => {
  t.equal((await lanes(null, chicagoToIndy)).statusCode, 401);
  const asDriver = await lanes(driver.token, chicagoToIndy);
  t.equal(asDriver.statusCode, 403, 'a driver has no lane rates');
  for (const pending of [pendingShipper, pendingCarrier]) {
    const answer = await lanes(pending.token, chicagoToIndy);
    t.equal(answer.statusCode, 403);
    t.equal(answer.json().message, 'Your organization is not active yet');
    t.equal((await app.inject({ method: 'GET', url: '/api/insights/lanes/top', headers: bearer(pending.token) })).statusCode, 403);
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/insights/lanes/top', headers: bearer(driver.token) })).statusCode, 403);
  t.equal((await app.inject({ method: 'GET', url: '/api/insights/lanes/top', headers: bearer(admin.token) })).statusCode, 200);
});

t.test('a bad query is a 400 naming the field', async (t) => {
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
    t.equal(answer.statusCode, 400, `${JSON.stringify(query)}: ${answer.body}`);
    t.same(answer.json().errors?.map((error: { path: string }) => error.path), [field], `names ${field}`);
  }
  for (const query of ['months=0', 'limit=0', 'limit=21', 'months=x']) {
    const answer = await app.inject({ method: 'GET', url: `/api/insights/lanes/top?${query}`, headers: bearer(shipper.token) });
    t.equal(answer.statusCode, 400, query);
    t.same(answer.json().errors?.map((error: { path: string }) => error.path), [query.split('=')[0]]);
  }
});
