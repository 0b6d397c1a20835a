// @postgres: each organization's rows filtered in the read models' SQL
/**
 * Tenant isolation of the marketplace routes (docs/domain.md "Tenancy": an id that belongs to another organization
 * answers 404, the same as an id that does not exist): for every route naming a load, an offer or
 * a tour, another organization's id and an unknown id get the same status and the same message, so
 * that an answer never tells whether someone else's shipment exists. Drivers see only the tours
 * assigned to them. The routes come from the app's own route table and server/testing/accessTable.ts.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { hasAny, permissionsFor, Role, type RoleId } from '../../domain/permissions.ts';
import type { InventoriedRoute } from '../app.ts';
import { member, organization, PDF, type Member } from '../identity/fixtures.ts';
import {
  accessTable,
  isUserGuarded,
  type RouteAccess,
  type Tenant,
  type TenantKind,
} from '../testing/accessTable.ts';
import { watchEvents } from '../testing/events.ts';
import { type Reply, requester, type Upload } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { apiRoutes, fillPath, routeKey, type RouteKey } from '../testing/routeInventory.ts';
import { startTestApp } from '../testing/testApp.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

const shipperA = await organization(app, platform, 'Shipper');
const carrierA = await organization(app, platform, 'Carrier');
const driverA = await member(app, platform, carrierA.organizationId!, Role.Driver);
// A driver of carrier A that no tour is assigned to.
const idleDriverA = await member(app, platform, carrierA.organizationId!, Role.Driver);
const shipperB = await organization(app, platform, 'Shipper');
const carrierB = await organization(app, platform, 'Carrier');
const driverB = await member(app, platform, carrierB.organizationId!, Role.Driver);
// The other side of each shipment, so that A and B are never parties of each other's.
const shipperN = await organization(app, platform, 'Shipper');
const carrierN = await organization(app, platform, 'Carrier');
const driverN = await member(app, platform, carrierN.organizationId!, Role.Driver);

type Ids = Record<'load' | 'proposal' | 'tour' | 'user', string>;

const signedContract: Upload = {
  data: { status: 14 },
  files: { contract: { content: PDF, filename: 'signed.pdf', type: 'application/pdf' } },
};

async function must(
  user: Member,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
  form?: Upload,
) {
  const send = as(user);
  const response = form
    ? await send.upload(url, form, method === 'PUT' ? 'PUT' : 'POST')
    : method === 'GET'
      ? await send.get(url)
      : await send[method === 'PUT' ? 'put' : 'post'](url, payload);
  if (response.status >= 300)
    throw new Error(`fixture ${method} ${url}: ${response.status} ${response.text}`);
  return response.body;
}

/** A load posted, bid on, accepted, its contract signed and its tour assigned; `user` is a driver of the winning carrier. */
async function shipment(
  shipper: Member,
  carrier: Member,
  driver: Member,
  otherDriver: Member,
): Promise<Ids> {
  const { id: load } = await must(shipper, 'POST', '/api/loads', loadBody());
  const { id: offer } = await must(carrier, 'POST', `/api/proposal/${load}`, { price: 1000 });
  await must(shipper, 'PUT', `/api/proposal/${offer}`, { status: 5 });
  const { tourId: tour } = await must(shipper, 'GET', `/api/loads/${load}`);
  await must(carrier, 'POST', `/api/proposal/load/${load}`, undefined, signedContract);
  await must(carrier, 'POST', `/api/tours/${tour}/assign/${driver.userId}`);
  return { load, proposal: offer, tour, user: otherDriver.userId };
}

// A's shipments, and B's: a shipper's own load (won by carrier N), a carrier's won load (posted by shipper N).
const shipperAShipment = await shipment(shipperA, carrierN, driverN, driverN);
const shipperBShipment = await shipment(shipperB, carrierN, driverN, driverN);
const carrierAShipment = await shipment(shipperN, carrierA, driverA, idleDriverA);
const carrierBShipment = await shipment(shipperN, carrierB, driverB, driverB);

type Caller = { name: string; roleId: RoleId; user: Member; own: Ids; foreign: Ids };
const callers: Caller[] = [
  {
    name: 'Shipper A',
    roleId: Role.Shipper,
    user: shipperA,
    own: shipperAShipment,
    foreign: shipperBShipment,
  },
  {
    name: 'Carrier A',
    roleId: Role.Carrier,
    user: carrierA,
    own: carrierAShipment,
    foreign: carrierBShipment,
  },
  {
    name: 'Driver A',
    roleId: Role.Driver,
    user: driverA,
    own: carrierAShipment,
    foreign: carrierBShipment,
  },
];

/** Bodies that pass validation, so that the answer is about the id. */
const bodies: Partial<
  Record<RouteKey, (caller: Caller) => { body?: Record<string, unknown>; form?: Upload }>
> = {
  'PUT /api/loads': () => ({ body: loadBody({ commodity: 'Edited paper' }) }),
  'PUT /api/loads/:id/status': () => ({
    body: { status: 7, message: 'The customer withdrew the order' },
  }),
  'POST /api/proposal/:id': () => ({ body: { price: 1000, message: 'Ready tomorrow' } }),
  'POST /api/loads/:id/book': () => ({ body: {} }),
  'PUT /api/proposal/:id': (caller) => ({
    body:
      caller.roleId === Role.Carrier
        ? { status: 7, message: 'Truck unavailable' }
        : { status: 12, message: 'No, thank you' },
  }),
  'POST /api/proposal/load/:loadId': () => ({ form: signedContract }),
  'POST /api/tours/:id/rate': () => ({ body: { ratings: [{ criteria: 1, rating: 5 }] } }),
  'PUT /api/tours/:id/status': () => ({ body: { status: 3, message: 'Rolling' } }),
  'POST /api/tours/:id/events': () => ({ body: { type: 'note', message: 'At the gate' } }),
  'POST /api/tours/:id/positions': () => ({
    body: { latitude: 41.9, longitude: -87.7, speed: 30 },
  }),
  'POST /api/tours/:id/chat': () => ({ body: { message: 'On my way' } }),
  'POST /api/tours/:id/claims/:claimId/dispute': () => ({ body: { reason: 'Our dock log' } }),
  'POST /api/tours/:id/claims/:claimId/answer': () => ({ body: { text: 'The geofence' } }),
  'POST /api/tours/:id/claims/:claimId/note': () => ({ body: { text: 'Door 4' } }),
  'POST /api/tours/:id/claims/:claimId/settle': () => ({ body: { amount: 10, note: 'Split' } }),
};

const marketplaceKinds: readonly TenantKind[] = ['load', 'proposal', 'tour'];
const tenantsOf = (access: RouteAccess): readonly Tenant[] =>
  !isUserGuarded(access) || !access.tenant ? [] : [access.tenant].flat();
const allowed = (access: RouteAccess, roleId: RoleId) =>
  access.access === 'public' ||
  (isUserGuarded(access) &&
    (access.access.length === 0 || hasAny(permissionsFor(roleId), ...access.access)));
const forbiddenByDesign = (access: RouteAccess, roleId: RoleId) =>
  isUserGuarded(access) && Boolean(access.forbiddenFor?.roles.includes(roleId));

/** The app's routes that name a load, an offer or a tour, with their declared tenants. */
const marketplaceRoutes = apiRoutes(app).flatMap((route) => {
  const access: RouteAccess | undefined = accessTable[routeKey(route)];
  const tenants = access ? tenantsOf(access) : [];
  return access && tenants.some((tenant) => marketplaceKinds.includes(tenant.kind))
    ? [{ route, key: routeKey(route), access, tenants }]
    : [];
});

/** The request with each tenant's id from `ids`, except the one at `index`, which is `id`. */
function request(
  route: InventoriedRoute,
  key: RouteKey,
  caller: { user: Member } & Pick<Caller, 'roleId'>,
  tenants: readonly Tenant[],
  ids: Ids,
  index: number,
  id: string,
) {
  const probe = bodies[key]?.(caller as Caller) ?? {};
  const params: Record<string, string> = {};
  let body = probe.body;
  for (const [position, tenant] of tenants.entries()) {
    const value = position === index ? id : ids[tenant.kind as keyof Ids];
    if (tenant.param.startsWith('body.'))
      body = { ...body, [tenant.param.slice('body.'.length)]: value };
    else params[tenant.param] = value;
  }
  const url = fillPath(route.url, params);
  const send = as(caller.user);
  if (probe.form) return send.upload(url, probe.form, route.method as 'POST' | 'PUT');
  if (route.method === 'GET') return send.get(url);
  return send[route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](url, body);
}

type Answer = { status: number; message: unknown; keys: string[] };
const answerOf = (response: Reply): Answer => ({
  status: response.status,
  message: response.body?.message,
  keys: Object.keys(response.body ?? {}).sort(),
});

let compared = 0;

t.test('the marketplace routes are all here', async (t) => {
  const keys = marketplaceRoutes.map(({ key }) => key);
  for (const key of [
    'GET /api/loads/:id',
    'PUT /api/loads',
    'GET /api/proposal/:loadId/proposal/:proposalId',
    'PUT /api/proposal/:id',
    'GET /api/tours/:id',
    'POST /api/tours/:id/chat',
    'GET /api/loads/:id/history',
  ] as RouteKey[]) {
    t.ok(keys.includes(key), `${key} names a tenant id`);
  }
  t.comment(`${keys.length} id-bearing marketplace routes: ${keys.join(', ')}`);
});

t.test("another organization's id answers exactly like an unknown one", async (t) => {
  const events = await watchEvents(platform.store);
  for (const { route, key, access, tenants } of marketplaceRoutes) {
    for (const caller of callers) {
      if (!allowed(access, caller.roleId) || forbiddenByDesign(access, caller.roleId)) continue;
      for (const [index, tenant] of tenants.entries()) {
        const what =
          tenants.length > 1
            ? `${tenant.kind} (${tenant.param}), the rest its own`
            : `${tenant.kind} (${tenant.param})`;
        const foreign = answerOf(
          await request(
            route,
            key,
            caller,
            tenants,
            caller.own,
            index,
            caller.foreign[tenant.kind as keyof Ids],
          ),
        );
        const unknown = answerOf(
          await request(route, key, caller, tenants, caller.own, index, randomUUID()),
        );
        compared += 1;
        t.equal(
          foreign.status,
          404,
          `${key} as ${caller.name} with another organization's ${what}: 404`,
        );
        t.equal(unknown.status, 404, `${key} as ${caller.name} with an unknown ${what}: 404`);
        t.equal(
          foreign.message,
          unknown.message,
          `${key} as ${caller.name}: the same message, "${unknown.message}"`,
        );
        t.same(
          foreign.keys,
          unknown.keys,
          `${key} as ${caller.name}: the same body shape (${unknown.keys.join(', ')})`,
        );
        await events.expect(t, [], {
          message: `${key} as ${caller.name} with another organization's or an unknown ${what}: nothing written`,
        });
      }
    }
  }
  t.comment(`${compared} foreign and unknown answers compared`);
});

t.test(
  "a driver sees only the tours assigned to it: another carrier's driver and an idle colleague get 404",
  async (t) => {
    const tourRoutes = marketplaceRoutes.filter(({ tenants }) =>
      tenants.some((tenant) => tenant.kind === 'tour'),
    );
    t.ok(tourRoutes.length >= 10, `${tourRoutes.length} tour routes`);
    const events = await watchEvents(platform.store);
    // Carrier A's tour is assigned to driver A.
    const strangers = [
      { name: "carrier B's driver", user: driverB },
      { name: "carrier A's idle driver", user: idleDriverA },
    ];
    for (const { route, key, access, tenants } of tourRoutes) {
      const index = tenants.findIndex((tenant) => tenant.kind === 'tour');
      for (const stranger of strangers) {
        const caller = { user: stranger.user, roleId: Role.Driver };
        const theirs = answerOf(
          await request(
            route,
            key,
            caller,
            tenants,
            carrierAShipment,
            index,
            carrierAShipment.tour,
          ),
        );
        const unknown = answerOf(
          await request(route, key, caller, tenants, carrierAShipment, index, randomUUID()),
        );
        if (!allowed(access, Role.Driver) || forbiddenByDesign(access, Role.Driver)) {
          // A route no driver may call (rating, assigning, a party's step on a claim) is refused by
          // its guard before any id is read.
          t.equal(theirs.status, 403, `${key} as ${stranger.name}: 403, not a driver's route`);
          t.same(
            theirs,
            unknown,
            `${key} as ${stranger.name}: the same refusal for an unknown tour`,
          );
          await events.expect(t, [], { message: `${key} as ${stranger.name}: nothing written` });
          continue;
        }
        t.equal(theirs.status, 404, `${key} as ${stranger.name} with driver A's tour: 404`);
        t.same(
          theirs,
          unknown,
          `${key} as ${stranger.name}: answered exactly like an unknown tour ("${unknown.message}")`,
        );
        await events.expect(t, [], { message: `${key} as ${stranger.name}: nothing written` });
      }
    }
    const ownTour = await as(driverA).get(`/api/tours/${carrierAShipment.tour}`);
    t.equal(ownTour.status, 200, 'driver A reads its own tour');
    const assigned = await as(driverB).get('/api/tours/assigned', { pageSize: '10' });
    t.same(
      assigned.body.data.map((tour: { id: string }) => tour.id),
      [carrierBShipment.tour],
      "carrier B's driver lists only its own tour",
    );
  },
);
