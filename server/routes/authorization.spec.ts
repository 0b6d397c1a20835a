/**
 * The authorization matrix: every route of the app, read from its own route table, called by an
 * anonymous caller and by each role, and every tenant-scoped id tried from another organization.
 * What each route should answer is declared in server/testing/accessTable.ts.
 */
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { hasAny, permissionsFor, Role, type RoleId } from '../../domain/permissions.ts';
import type { InventoriedRoute } from '../app.ts';
import {
  member,
  organization,
  PASSWORD,
  PDF,
  superadmin,
  type Member,
} from '../identity/fixtures.ts';
import { callerOf as causeOf } from '../commands/caller.ts';
import { createUser } from '../commands/users.ts';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { loadsCsvTemplate } from '../integrations/csv/loadsCsv.ts';
import { createFileStore } from '../integrations/files/files.ts';
import {
  accessTable,
  isUserGuarded,
  type ByDesign,
  type RouteAccess,
  type Tenant,
  type TenantKind,
} from '../testing/accessTable.ts';
import { watchEvents } from '../testing/events.ts';
import { type Reply, requester, type Upload } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { apiRoutes, fillPath, routeKey, type RouteKey } from '../testing/routeInventory.ts';
import { startTestApp } from '../testing/testApp.ts';

// The global limit must not answer 429 in place of the guard. The public registration routes keep
// their own limits (5 to 20 a minute); each of them is called once per caller, five times in all.
process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

const admin = await superadmin(app, platform);
const shipperA = await organization(app, platform, 'Shipper');
const carrierA = await organization(app, platform, 'Carrier');
const driverA = await member(app, platform, carrierA.organizationId!, Role.Driver);
// Organization B of each type: the foreign tenant, and the target of requests that change things.
const shipperB = await organization(app, platform, 'Shipper');
const carrierB = await organization(app, platform, 'Carrier');
const driverB = await member(app, platform, carrierB.organizationId!, Role.Driver);
// The other side of the tenant fixtures' shipments: shipper N posts the loads carriers win, carrier N
// wins the loads shippers post, so that no caller is ever a party of another organization's shipment.
const shipperN = await organization(app, platform, 'Shipper');
const carrierN = await organization(app, platform, 'Carrier');
const driverN = await member(app, platform, carrierN.organizationId!, Role.Driver);
// Organizations waiting for their vetting (Pending), and organizations blocked after their members signed in.
const pendingShipper = await organization(app, platform, 'Shipper', { status: 1 });
const pendingCarrier = await organization(app, platform, 'Carrier', { status: 1 });
const pendingDriver = await member(app, platform, pendingCarrier.organizationId!, Role.Driver);
const blockedShipper = await organization(app, platform, 'Shipper');
const blockedCarrier = await organization(app, platform, 'Carrier');
const blockedDriver = await member(app, platform, blockedCarrier.organizationId!, Role.Driver);

type Caller = {
  name: string;
  roleId: RoleId | null;
  user: Member | null;
  foreignOrganizationId: string | null;
};
const callers: Caller[] = [
  { name: 'anonymous', roleId: null, user: null, foreignOrganizationId: null },
  { name: 'Superadmin', roleId: Role.Superadmin, user: admin, foreignOrganizationId: null },
  {
    name: 'Shipper',
    roleId: Role.Shipper,
    user: shipperA,
    foreignOrganizationId: shipperB.organizationId,
  },
  {
    name: 'Carrier',
    roleId: Role.Carrier,
    user: carrierA,
    foreignOrganizationId: carrierB.organizationId,
  },
  {
    name: 'Driver',
    roleId: Role.Driver,
    user: driverA,
    foreignOrganizationId: carrierB.organizationId,
  },
];
const pendingCallers: Caller[] = [
  {
    name: 'Pending Shipper',
    roleId: Role.Shipper,
    user: pendingShipper,
    foreignOrganizationId: shipperB.organizationId,
  },
  {
    name: 'Pending Carrier',
    roleId: Role.Carrier,
    user: pendingCarrier,
    foreignOrganizationId: carrierB.organizationId,
  },
  {
    name: "Pending carrier's Driver",
    roleId: Role.Driver,
    user: pendingDriver,
    foreignOrganizationId: carrierB.organizationId,
  },
];
/** Signed in before their organization was blocked (the spec blocks it just before it calls). */
const blockedCallers: Caller[] = [
  {
    name: 'Blocked Shipper',
    roleId: Role.Shipper,
    user: blockedShipper,
    foreignOrganizationId: shipperB.organizationId,
  },
  {
    name: 'Blocked Carrier',
    roleId: Role.Carrier,
    user: blockedCarrier,
    foreignOrganizationId: carrierB.organizationId,
  },
  {
    name: "Blocked carrier's Driver",
    roleId: Role.Driver,
    user: blockedDriver,
    foreignOrganizationId: carrierB.organizationId,
  },
];
const NOT_ACTIVE = 'Your organization is not active yet';
const BLOCKED = 'Your organization is blocked';

/** Where a caller's request points: its own organization, or shipper B for those without one. */
const targetOrganization = (caller: Caller) =>
  caller.user?.organizationId ?? shipperB.organizationId!;

const unique = () => randomUUID().slice(0, 8);
const files = createFileStore(platform.database.db);
const contact = {
  address: '1 Main St, Chicago, IL',
  person: 'Pat Contact',
  email: 'office@example.com',
  phone: '555-555-0101',
};
const documents = Object.fromEntries(
  ['mcAuthority', 'certificateOfInsurance', 'w9Form'].map((name) => [
    name,
    { content: PDF, filename: `${name}.pdf`, type: 'application/pdf' },
  ]),
);

/** A user nobody else relies on (a Driver in a carrier, a Shipper in a shipper), for the routes that block, delete or edit. */
async function throwaway(organizationId: string, status: 1 | 2 = 2): Promise<string> {
  const roleId =
    (await platform.identity.loadOrganization(organizationId))?.type === 'Carrier'
      ? Role.Driver
      : Role.Shipper;
  const tag = unique();
  const { userId, position } = await createUser(
    platform,
    {
      email: `throwaway-${tag}@example.com`,
      username: `throwaway-${tag}`,
      name: `Throwaway ${tag}`,
      phone: '555-555-0104',
      roleId,
      organizationId,
      password: PASSWORD,
      status,
    },
    causeOf(null),
    new Date().toISOString(),
  );
  await platform.runner.waitFor(['users', 'organizations'], position);
  return userId;
}

const fileOf = (organizationId: string) =>
  files.save({ organizationId, kind: 'w9Form', mime: 'application/pdf', data: PDF });

async function refreshTokenOf(user: Member): Promise<string> {
  const response = await as(null).post('/api/login', { email: user.email, password: PASSWORD });
  return response.body.refreshToken;
}

/** A request's variable parts; what is not given is left out (the body) or a fresh UUID (path parameters). */
type Probe = {
  params?: Record<string, string>;
  body?: Record<string, unknown>;
  form?: Upload;
};

/**
 * Plausible requests, so that a caller the guard lets through gets a real answer. A route without
 * one is called with unknown ids and no body: an allowed caller then gets 400 or 404, which is enough.
 */
const probes: Partial<Record<RouteKey, (caller: Caller) => Probe | Promise<Probe>>> = {
  'POST /api/login': () => ({ body: { email: shipperB.email, password: PASSWORD } }),
  'POST /api/refresh-token': async () => ({
    body: { refreshToken: await refreshTokenOf(shipperB) },
  }),
  'POST /api/logout': async () => ({ body: { refreshToken: await refreshTokenOf(shipperB) } }),
  'POST /api/register/carrier': () => ({
    form: { data: registration({ mcNumber: 123456, dotNumber: 654321 }), files: documents },
  }),
  'POST /api/register/shipper': () => ({ form: { data: registration({ insuredAmount: 1 }) } }),
  'POST /api/confirm-signup': () => ({ body: { email: shipperB.email, code: '000000' } }),
  'POST /api/confirm-signup/resend': () => ({ body: { email: `nobody-${unique()}@example.com` } }),
  'POST /api/users/forgot-password': () => ({ body: { email: `nobody-${unique()}@example.com` } }),
  'POST /api/users/reset-password': () => ({
    body: { code: 'not-a-reset-code', newPassword: 'new-password-1' },
  }),
  'GET /api/profile/:id': () => ({ params: { id: shipperB.userId } }),
  // Active again for an organization already Active: 200 and nothing changes (a block would stop the fixtures).
  'PUT /api/organizations/:id/status': () => ({
    params: { id: carrierB.organizationId! },
    body: { status: 'Active' },
  }),
  'GET /api/users/activate/:id': async (caller) => ({
    params: { id: await throwaway(targetOrganization(caller), 1) },
  }),
  'GET /api/users/block/:id': async (caller) => ({
    params: { id: await throwaway(targetOrganization(caller)) },
  }),
  'POST /api/users': (caller) => ({ body: newUser(caller) }),
  'PUT /api/users/:id': async (caller) => ({
    params: { id: await throwaway(targetOrganization(caller)) },
    body: { email: `edited-${unique()}@example.com`, name: 'Edited Name', phone: '555-555-0105' },
  }),
  // A Superadmin deletes a driver of carrier B; a Shipper has USER_DELETE but no drivers (409).
  'DELETE /api/users/deleteDriver': async (caller) => ({
    body: { id: await throwaway(caller.user?.organizationId ?? carrierB.organizationId!) },
  }),
  'POST /api/users/organization': () => ({
    form: {
      data: {
        type: 'Shipper',
        name: `Created ${unique()}`,
        organizationContactInfo: contact,
        insuredAmount: 1,
      },
    },
  }),
  // The caller's own e-mail and username: a changed one would not end its session, but keeps the fixtures' names true.
  'PUT /api/users': (caller) => ({
    body: {
      email: caller.user?.email ?? 'someone@example.com',
      username: caller.user?.username ?? 'someone',
      name: 'Same Person',
      phone: '555-555-0106',
    },
  }),
  'PUT /api/users/organization': () => ({ body: { ...contact, name: `Renamed ${unique()}` } }),
  'POST /api/users/carrier': () => ({
    form: {
      data: {
        mcNumber: 111222,
        dotNumber: 333444,
        eldProvider: null,
        trucks: [],
        trailers: [],
        driverTeams: [],
      },
    },
  }),
  'POST /api/users/shipper': () => ({ form: { data: { insuredAmount: 1 } } }),
  'GET /api/files/:id': async (caller) => ({
    params: { id: await fileOf(targetOrganization(caller)) },
  }),
  'POST /api/loads': () => ({ body: loadBody() }),
  'PUT /api/loads': () => ({ body: loadBody({ commodity: 'Edited paper' }) }),
  'PUT /api/loads/:id/status': () => ({
    body: { status: 7, message: 'The customer withdrew the order' },
  }),
  'POST /api/loads/batchImport': () => ({
    form: {
      data: undefined,
      files: {
        csv_loads_file: {
          content: Buffer.from(loadsCsvTemplate(new Date().toISOString())),
          filename: 'loads.csv',
          type: 'text/csv',
        },
      },
    },
  }),
  'POST /api/proposal/:id': () => ({ body: { price: 1000, message: 'Ready tomorrow' } }),
  'POST /api/loads/:id/book': () => ({ body: {} }),
  'POST /api/tours/:id/claims/:claimId/dispute': () => ({ body: { reason: 'Our dock log' } }),
  'POST /api/tours/:id/claims/:claimId/answer': () => ({ body: { text: 'The geofence' } }),
  'POST /api/tours/:id/claims/:claimId/note': () => ({ body: { text: 'Door 4' } }),
  'POST /api/tours/:id/claims/:claimId/settle': () => ({ body: { amount: 10, note: 'Split' } }),
  'POST /api/invoices/:id/submit': () => ({ body: { reference: 'ACC-1' } }),
  'POST /api/invoices/:id/dispute': () => ({ body: { lines: [{ index: 0, reason: 'Rate' }] } }),
  'POST /api/invoices/:id/answer': () => ({ body: { text: 'As agreed' } }),
  'POST /api/invoices/:id/schedule': () => ({ body: { date: '2099-01-01' } }),
  'POST /api/invoices/:id/pay': () => ({ body: { reference: 'ACH 1', paidAt: '2026-01-01' } }),
  'POST /api/invoices/:id/receipt': () => ({ body: { received: true } }),
  // The shipper declines an offer, the carrier withdraws its own.
  'PUT /api/proposal/:id': (caller) => ({
    body:
      caller.roleId === Role.Carrier
        ? { status: 7, message: 'Truck unavailable' }
        : { status: 12, message: 'No, thank you' },
  }),
  'POST /api/proposal/load/:loadId': () => ({
    form: {
      data: { status: 14 },
      files: { contract: { content: PDF, filename: 'signed.pdf', type: 'application/pdf' } },
    },
  }),
  'POST /api/tours/:id/rate': () => ({ body: { ratings: [{ criteria: 1, rating: 5 }] } }),
  'PUT /api/tours/:id/status': () => ({ body: { status: 3, message: 'Rolling' } }),
  'POST /api/tours/:id/events': () => ({ body: { type: 'note', message: 'At the gate' } }),
  'POST /api/tours/:id/positions': () => ({
    body: { latitude: 41.9, longitude: -87.7, speed: 30 },
  }),
  'POST /api/tours/:id/chat': () => ({ body: { message: 'On my way' } }),
};

function registration(extra: Record<string, unknown>) {
  const tag = unique();
  return {
    email: `registered-${tag}@example.com`,
    username: `registered-${tag}`,
    password: 'password-123',
    userDetails: { name: 'New Registrant', phone: '555-555-0108' },
    organization: { name: `Registered ${tag}`, organizationContactInfo: contact },
    acceptTerms: true,
    ...extra,
  };
}

function newUser(caller: Caller) {
  const tag = unique();
  return {
    email: `new-${tag}@example.com`,
    username: `new-${tag}`,
    userDetails: { name: `New ${tag}`, phone: '555-555-0107' },
    password: 'password-123',
    roleId: caller.roleId === Role.Carrier ? Role.Driver : Role.Shipper,
    organizationId: targetOrganization(caller),
  };
}

/** One load through offer, acceptance, signed contract and a driver's assignment (the contract comes first). */
type Shipment = { load: string; proposal: string; tour: string };

const members = new Map(
  [shipperA, shipperB, shipperN, carrierA, carrierB, carrierN].map((user) => [
    user.organizationId!,
    user,
  ]),
);
const shipperIds = new Set([shipperA, shipperB, shipperN].map((user) => user.organizationId!));
const driverOf = new Map([
  [carrierA.organizationId!, driverA],
  [carrierB.organizationId!, driverB],
  [carrierN.organizationId!, driverN],
]);

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

/**
 * A shipment of the organization: a shipper's load won by carrier N, or a load of shipper N won by
 * the carrier; its tour is assigned to a driver of the winning carrier (driver A for carrier A).
 */
async function newShipment(organizationId: string): Promise<Shipment> {
  const self = members.get(organizationId)!;
  const [shipper, carrier] = shipperIds.has(organizationId) ? [self, carrierN] : [shipperN, self];
  const { id: load } = await must(shipper, 'POST', '/api/loads', loadBody());
  const { id: offer } = await must(carrier, 'POST', `/api/proposal/${load}`, { price: 1000 });
  await must(shipper, 'PUT', `/api/proposal/${offer}`, { status: 5 });
  const { tourId: tour } = await must(shipper, 'GET', `/api/loads/${load}`);
  await must(carrier, 'POST', `/api/proposal/load/${load}`, undefined, {
    data: { status: 14 },
    files: { contract: { content: PDF, filename: 'signed.pdf', type: 'application/pdf' } },
  });
  await must(
    carrier,
    'POST',
    `/api/tours/${tour}/assign/${driverOf.get(carrier.organizationId!)!.userId}`,
  );
  return { load, proposal: offer, tour };
}

/**
 * One shipment per organization, shared by every request that leaves it usable for the next: a
 * shipment takes six requests, and most requests here are refused, answered 404, read, or add a
 * note, a message or a position. The routes that end it or take the tour from its driver get a
 * fresh one each time.
 */
const endsItsShipment = new Set<RouteKey>([
  'PUT /api/loads/:id/status',
  'POST /api/tours/:id/assign/:assigneeId',
]);

const sharedShipments = new Map<string, Promise<Shipment>>();
const sharedShipmentOf = (organizationId: string): Promise<Shipment> => {
  if (!sharedShipments.has(organizationId))
    sharedShipments.set(organizationId, newShipment(organizationId));
  return sharedShipments.get(organizationId)!;
};

/**
 * An id that belongs to the given organization, per tenant kind. `load`: a shipper's own posted load,
 * a carrier's won load; `proposal`: an offer on the shipper's load, the carrier's own offer; `tour`:
 * the tour of either (a driver's: one assigned to it). The marketplace kinds come from one shipment,
 * so that a route naming a load and its offer gets a matching pair. A route declaring a kind that
 * has no entry here fails: add one with the route.
 */
const tenantIds: Partial<
  Record<TenantKind, (organizationId: string, shipment: () => Promise<Shipment>) => Promise<string>>
> = {
  user: (organizationId) => throwaway(organizationId),
  organization: async (organizationId) => organizationId,
  file: (organizationId) => fileOf(organizationId),
  load: async (_organizationId, shipment) => (await shipment()).load,
  proposal: async (_organizationId, shipment) => (await shipment()).proposal,
  tour: async (_organizationId, shipment) => (await shipment()).tour,
};

type IdsOf = (kind: TenantKind) => Promise<string>;

/** Ids of one organization, made on first use; the marketplace kinds from a fresh shipment unless `shared`. */
function idsIn(organizationId: string, shared = false): IdsOf {
  let shipment: Promise<Shipment> | undefined;
  const ofShipment = () =>
    (shipment ??= shared ? sharedShipmentOf(organizationId) : newShipment(organizationId));
  return (kind) => tenantIds[kind]!(organizationId, ofShipment);
}

/** The same ids every time, for requests the guard refuses before any id is read. */
const references = new Map<string, Map<TenantKind, Promise<string>>>();
function referenceIdsIn(organizationId: string): IdsOf {
  const known = references.get(organizationId) ?? new Map<TenantKind, Promise<string>>();
  references.set(organizationId, known);
  const ids = idsIn(organizationId, true);
  return (kind) => {
    if (!known.has(kind)) known.set(kind, ids(kind));
    return known.get(kind)!;
  };
}

const tenantsOf = (access: RouteAccess): readonly Tenant[] =>
  !isUserGuarded(access) || !access.tenant ? [] : [access.tenant].flat();

function withTenantId(probe: Probe, tenant: Tenant, id: string): Probe {
  if (!tenant.param.startsWith('body.'))
    return { ...probe, params: { ...probe.params, [tenant.param]: id } };
  return { ...probe, body: { ...probe.body, [tenant.param.slice('body.'.length)]: id } };
}

/** The probe with every tenant id filled in: from `foreign` for the tenant at `foreignIndex`, from `own` for the rest. */
async function withTenantIds(
  probe: Probe,
  tenants: readonly Tenant[],
  own: IdsOf,
  foreign: IdsOf = own,
  foreignIndex = -1,
): Promise<Probe> {
  let filled = probe;
  for (const [index, tenant] of tenants.entries())
    filled = withTenantId(
      filled,
      tenant,
      await (index === foreignIndex ? foreign : own)(tenant.kind),
    );
  return filled;
}

const byDesign = (rule: ByDesign | undefined, caller: Caller) =>
  Boolean(rule && caller.roleId !== null && rule.roles.includes(caller.roleId));

let requests = 0;
const leaks: string[] = [];
const answers = new Map<RouteKey, string[]>();

/** The log, read after every refused request: a 401, 403 or 404 appends nothing. */
const watch = await watchEvents(platform.store);
const REFUSED = new Set([401, 403, 404]);
/** The refused requests that appended events since the last {@link nothingWritten}, each named. */
const refusedWrites: string[] = [];

async function send(route: InventoriedRoute, caller: Caller, probe: Probe): Promise<Reply> {
  requests += 1;
  const url = fillPath(route.url, probe.params);
  const by = as(caller.user);
  // What the fixtures and probes appended before this request is theirs.
  await watch.take();
  const response = probe.form
    ? await by.upload(url, probe.form, route.method as 'POST' | 'PUT')
    : route.method === 'GET'
      ? await by.get(url)
      : await by[route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](
          url,
          probe.body,
        );
  if (REFUSED.has(response.status)) {
    const appended = await watch.take();
    if (appended.length > 0)
      refusedWrites.push(
        `${routeKey(route)} as ${caller.name}: ${response.status}, yet appended ${appended
          .map((event) => `${event.type} to ${event.streamId}`)
          .join(', ')}`,
      );
  }
  return response;
}

const call = async (route: InventoriedRoute, caller: Caller, probe: Probe): Promise<number> =>
  (await send(route, caller, probe)).status;

/** Asserts that no refused request since the last look appended an event; names those that did. */
const nothingWritten = (t: Test, what: string) =>
  t.same(refusedWrites.splice(0), [], `${what}: the refused requests appended nothing`);

const allowed = (access: RouteAccess, caller: Caller) =>
  access.access === 'public' ||
  (isUserGuarded(access) &&
    caller.roleId !== null &&
    (access.access.length === 0 || hasAny(permissionsFor(caller.roleId), ...access.access)));

const routes = apiRoutes(app);
const sorted = (codes: readonly number[]) => [...codes].sort((a, b) => a - b);

t.test('the access table and the app route table agree', async (t) => {
  const keys = new Set<string>(routes.map(routeKey));
  for (const route of routes) {
    const key = routeKey(route);
    const row: RouteAccess | undefined = accessTable[key];
    t.ok(
      route.public || route.permissions,
      `${key} is public (config.public) or guarded (onRequest: can(...))`,
    );
    t.notOk(route.public && route.permissions, `${key} is not public and guarded at once`);
    if (route.permissions)
      t.equal(
        route.guardHook,
        'onRequest',
        `${key} checks can(...) in onRequest, before the body is validated`,
      );
    if (!row) {
      t.fail(`${key} has a row in server/testing/accessTable.ts`);
      continue;
    }
    if (row.access === 'public') t.ok(route.public, `${key} is public, as declared`);
    else if (!isUserGuarded(row))
      t.ok(route.public, `${key} takes a partner's key, not a user: public for the guard`);
    else
      t.same(
        sorted(route.permissions ?? []),
        sorted(row.access),
        `${key} is guarded by the declared codes [${row.access.join(', ')}]`,
      );
    const whilePending = isUserGuarded(row) && row.whilePending === true;
    t.equal(
      route.whilePending,
      whilePending,
      `${key} ${whilePending ? 'is' : 'is not'} open to a Pending organization's users (config.whilePending), as declared`,
    );
  }
  for (const key of Object.keys(accessTable))
    t.ok(keys.has(key), `${key} of the access table is a route of the app`);
});

t.test('every route answers each caller as the table says', async (t) => {
  for (const route of routes) {
    const key = routeKey(route);
    const access: RouteAccess | undefined = accessTable[key];
    if (!access) continue;
    const row: string[] = [];
    for (const caller of callers) {
      const status = await call(route, caller, (await probes[key]?.(caller)) ?? {});
      row.push(`${caller.name} ${status}`);
      const label = `${key} as ${caller.name}: ${status}`;
      t.ok(status < 500, `${label}, not a server error`);
      if (access.access === 'partnerKey') {
        // No caller of the table carries a partner's API key: everyone is refused alike.
        t.equal(status, 401, `${label}, refused without a partner's key`);
        if (status < 400) leaks.push(`${key} as ${caller.name}: ${status} where 401 was expected`);
      } else if (isUserGuarded(access) && byDesign(access.forbiddenFor, caller)) {
        t.equal(
          status,
          403,
          `${label}, let through by the guard and refused by design: ${access.forbiddenFor!.why}`,
        );
        if (status < 400)
          leaks.push(
            `${key} as ${caller.name}: ${status} where 403 was expected (${access.forbiddenFor!.why})`,
          );
      } else if (allowed(access, caller)) {
        t.ok(status !== 401 && status !== 403, `${label}, let through`);
      } else {
        const expected = caller.user ? 403 : 401;
        t.equal(status, expected, `${label}, refused with ${expected}`);
        if (status < 400)
          leaks.push(`${key} as ${caller.name}: ${status} where ${expected} was expected`);
      }
    }
    answers.set(key, row);
    nothingWritten(t, key);
  }
  const width = Math.max(...[...answers.keys()].map((key) => key.length));
  t.comment(
    [
      'answers (route: caller status):',
      ...[...answers].map(([key, row]) => `${key.padEnd(width)}  ${row.join('  ')}`),
    ].join('\n'),
  );
});

t.test("another organization's ids answer 404; the caller's own do not", async (t) => {
  for (const route of routes) {
    const key = routeKey(route);
    const access: RouteAccess | undefined = accessTable[key];
    if (!access || !isUserGuarded(access) || !access.tenant) continue;
    const tenants = tenantsOf(access);
    const missing = tenants.filter((tenant) => !tenantIds[tenant.kind]);
    if (missing.length > 0) {
      for (const tenant of missing)
        t.fail(
          `${key}: no tenant fixture for kind '${tenant.kind}'; add one to tenantIds in server/routes/authorization.spec.ts`,
        );
      continue;
    }
    const names = tenants.map((tenant) => `${tenant.kind} (${tenant.param})`).join(' and ');
    for (const caller of callers) {
      const base = (await probes[key]?.(caller)) ?? {};
      const own = caller.user?.organizationId ?? null;
      const foreign = caller.foreignOrganizationId;
      if (!allowed(access, caller) || byDesign(access.forbiddenFor, caller)) {
        // The guard (or the rule of the row) answers whatever the ids: tried with its own and another organization's.
        const expected = !caller.user ? 401 : 403;
        for (const organizationId of own && foreign ? [own, foreign] : [carrierB.organizationId!]) {
          const status = await call(
            route,
            caller,
            await withTenantIds(base, tenants, referenceIdsIn(organizationId)),
          );
          const side = organizationId === own ? 'its own' : "another organization's";
          t.equal(status, expected, `${key} as ${caller.name} with ${side} ${names}: ${expected}`);
          if (status < 400)
            leaks.push(
              `${key} as ${caller.name}: ${status} for ${side} ${names} where ${expected} was due`,
            );
        }
        continue;
      }
      if (!own || !foreign) {
        // A Superadmin belongs to no organization and sees every one.
        const status = await call(
          route,
          caller,
          await withTenantIds(
            base,
            tenants,
            idsIn(carrierB.organizationId!, !endsItsShipment.has(key)),
          ),
        );
        if (byDesign(access.ownIdNotFoundFor, caller))
          t.equal(
            status,
            404,
            `${key} as ${caller.name} with carrier B's ${names}: 404 by design, ${access.ownIdNotFoundFor!.why}`,
          );
        else
          t.ok(
            status !== 404 && status < 500,
            `${key} as ${caller.name} with carrier B's ${names}: ${status}`,
          );
        continue;
      }
      const ownIds = idsIn(own, !endsItsShipment.has(key));
      const foreignIds = idsIn(foreign, true);
      // Each id of another organization on its own, the others the caller's: none may pass.
      for (const [index, tenant] of tenants.entries()) {
        const status = await call(
          route,
          caller,
          await withTenantIds(base, tenants, ownIds, foreignIds, index),
        );
        const label =
          tenants.length > 1
            ? `another organization's ${tenant.kind} (${tenant.param}) with its own ${tenants
                .filter((other) => other !== tenant)
                .map((other) => other.kind)
                .join(', ')}`
            : `another organization's ${names}`;
        t.equal(status, 404, `${key} as ${caller.name} with ${label}`);
        if (status !== 404) leaks.push(`${key} as ${caller.name}: ${status} for ${label}`);
      }
      const status = await call(route, caller, await withTenantIds(base, tenants, ownIds));
      if (byDesign(access.ownIdNotFoundFor, caller)) {
        t.equal(
          status,
          404,
          `${key} as ${caller.name} with its own ${names}: 404 by design, ${access.ownIdNotFoundFor!.why}`,
        );
      } else {
        t.ok(
          status !== 404 && status < 500,
          `${key} as ${caller.name} with its own ${names}: ${status}`,
        );
      }
    }
    nothingWritten(t, key);
  }
});

t.test(
  'an open load is on the marketplace: every carrier reads it and bids on it, other shippers do not see it',
  async (t) => {
    for (const route of routes) {
      const key = routeKey(route);
      const access: RouteAccess | undefined = accessTable[key];
      if (!access || !isUserGuarded(access) || !access.openOnMarketplace) continue;
      const tenants = tenantsOf(access);
      // Posted by shipper B with a Book Now price, open, and nobody has bid on it or booked it yet (the carrier's offer or booking below is the only change).
      const { id: openLoad } = await must(
        shipperB,
        'POST',
        '/api/loads',
        loadBody({ bookNowPrice: 1500 }),
      );
      const ids: IdsOf = async (kind) => {
        if (kind !== 'load')
          throw new Error(`${key}: an open marketplace load names only a load, not a ${kind}`);
        return openLoad;
      };
      for (const caller of callers) {
        const response = await send(
          route,
          caller,
          await withTenantIds((await probes[key]?.(caller)) ?? {}, tenants, ids),
        );
        const status = response.status;
        const label = `${key} as ${caller.name} with shipper B's open load: ${status}`;
        if (!allowed(access, caller)) {
          t.equal(status, caller.user ? 403 : 401, label);
          if (status < 400) leaks.push(`${label}, where ${caller.user ? 403 : 401} was due`);
        } else if (byDesign(access.forbiddenFor, caller)) {
          t.equal(status, 403, `${label}, by design: ${access.forbiddenFor!.why}`);
        } else if (caller.roleId === Role.Carrier || caller.roleId === Role.Superadmin) {
          t.ok(
            status >= 200 && status < 300,
            `${label}, allowed by design (docs/domain.md "Marketplace visibility")`,
          );
          if (key === 'GET /api/loads/:id' && caller.roleId === Role.Carrier) {
            const load = response.body;
            t.equal(
              load.contactsHidden,
              true,
              'the carrier reads it without the facility contacts',
            );
            t.ok(
              load.locations.every(
                (stop: { contactName: unknown; contactPhone: unknown }) =>
                  stop.contactName === null && stop.contactPhone === null,
              ),
              'no contact name or phone',
            );
            t.equal(load.acceptedProposalId, null);
          }
        } else {
          t.equal(status, 404, `${label}: another shipper's load`);
          if (status !== 404) leaks.push(`${label}, where 404 was due`);
        }
      }
      nothingWritten(t, key);
    }
  },
);

t.test(
  "a Pending organization's users: the routes of their own account let them through, every other guarded route answers 403",
  async (t) => {
    let open = 0;
    for (const route of routes) {
      const key = routeKey(route);
      const access: RouteAccess | undefined = accessTable[key];
      if (!access || !isUserGuarded(access)) continue;
      for (const caller of pendingCallers) {
        const response = await send(route, caller, (await probes[key]?.(caller)) ?? {});
        const status = response.status;
        const label = `${key} as ${caller.name}: ${status}`;
        t.ok(status < 500, `${label}, not a server error`);
        if (access.whilePending && allowed(access, caller)) {
          open += 1;
          t.ok(status !== 401 && status !== 403, `${label}, let through: the user's own account`);
        } else if (allowed(access, caller)) {
          t.equal(status, 403, `${label}, refused while the organization waits`);
          t.equal(response.body.message, NOT_ACTIVE, `${key} as ${caller.name}: '${NOT_ACTIVE}'`);
          if (status < 400)
            leaks.push(`${key} as ${caller.name} (Pending): ${status} where 403 was due`);
        } else {
          t.equal(status, 403, `${label}, refused (no permission, and the organization waits)`);
          if (status < 400)
            leaks.push(`${key} as ${caller.name} (Pending): ${status} where 403 was due`);
        }
      }
      nothingWritten(t, key);
    }
    t.ok(open > 0, `${open} answers of the account routes to a Pending organization's users`);
  },
);

t.test(
  "a blocked organization's users: tokens issued before the block are refused on every guarded route, and sign-in",
  async (t) => {
    for (const caller of blockedCallers)
      t.equal(
        await call(routes.find((route) => routeKey(route) === 'GET /api/profile')!, caller, {}),
        200,
        `${caller.name} works before the block`,
      );
    for (const organizationId of [blockedShipper.organizationId!, blockedCarrier.organizationId!]) {
      await watch.take();
      const response = await as(admin).put(`/api/organizations/${organizationId}/status`, {
        status: 'Blocked',
      });
      t.equal(response.status, 200, 'blocked');
      await watch.expect(t, [
        { type: 'OrganizationBlocked', stream: organizationStream(organizationId) },
      ]);
    }
    for (const route of routes) {
      const key = routeKey(route);
      const access: RouteAccess | undefined = accessTable[key];
      if (!access || !isUserGuarded(access)) continue;
      for (const caller of blockedCallers) {
        // Refused before any id or body is read: the probe is not needed.
        const response = await send(route, caller, {});
        t.equal(response.status, 401, `${key} as ${caller.name}: 401`);
        t.equal(response.body.message, BLOCKED, `${key} as ${caller.name}: '${BLOCKED}'`);
        if (response.status < 400)
          leaks.push(`${key} as ${caller.name} (blocked): ${response.status} where 401 was due`);
      }
      nothingWritten(t, key);
    }
    for (const caller of blockedCallers) {
      await watch.take();
      const response = await as(null).post('/api/login', {
        email: caller.user!.email,
        password: PASSWORD,
      });
      t.equal(response.status, 401, `${caller.name} cannot sign in`);
      t.equal(response.body.message, BLOCKED);
      await watch.expect(t, [], { message: `${caller.name}'s refused sign-in appended nothing` });
    }
  },
);

t.test(
  "files by owner and role: contracts to both dispatchers, tour files also to the tour's driver, documents to their organization",
  async (t) => {
    // Shipper A's load won by carrier N (driver N on the tour); shipper N's load won by carrier A (driver A on the tour).
    const ofShipperA = await sharedShipmentOf(shipperA.organizationId!);
    const ofCarrierA = await sharedShipmentOf(carrierA.organizationId!);
    const contractOf = async (shipment: Shipment) =>
      (await platform.marketplace.loadLoad(shipment.load))!.contractFileId!;
    const tourFileOf = (shipment: Shipment, organizationId: string) =>
      files.save({
        organizationId,
        kind: 'proofOfDelivery',
        tourId: shipment.tour,
        mime: 'application/pdf',
        data: PDF,
      });
    const SA = 'Superadmin';
    // Expected answer per caller (anonymous 401 everywhere); absent: 404.
    const owned: [string, Promise<string>, Record<string, number>][] = [
      ["shipper A's load's contract", contractOf(ofShipperA), { [SA]: 200, Shipper: 200 }],
      [
        "carrier A's won load's contract (driver A is on its tour)",
        contractOf(ofCarrierA),
        { [SA]: 200, Carrier: 200 },
      ],
      [
        "a file of shipper A's tour",
        tourFileOf(ofShipperA, carrierN.organizationId!),
        { [SA]: 200, Shipper: 200 },
      ],
      [
        "a file of carrier A's tour, driven by driver A",
        tourFileOf(ofCarrierA, carrierA.organizationId!),
        { [SA]: 200, Carrier: 200, Driver: 200 },
      ],
      ["carrier A's document", fileOf(carrierA.organizationId!), { [SA]: 200, Carrier: 200 }],
      ["shipper A's document", fileOf(shipperA.organizationId!), { [SA]: 200, Shipper: 200 }],
      ["carrier B's document", fileOf(carrierB.organizationId!), { [SA]: 200 }],
    ];
    const route = routes.find((candidate) => routeKey(candidate) === 'GET /api/files/:id')!;
    for (const [what, id, rule] of owned) {
      for (const caller of callers) {
        const expected = caller.user ? (rule[caller.name] ?? 404) : 401;
        const status = await call(route, caller, { params: { id: await id } });
        t.equal(status, expected, `${what} as ${caller.name}: ${expected}`);
        if (status < 400 && expected >= 400)
          leaks.push(
            `GET /api/files/:id as ${caller.name}: ${status} for ${what} where ${expected} was due`,
          );
      }
      nothingWritten(t, `GET /api/files/:id for ${what}`);
    }
  },
);

t.test('no leaks', async (t) => {
  t.comment(`authorization matrix: ${requests} requests, ${leaks.length} leaks`);
  for (const leak of leaks) t.comment(`leak: ${leak}`);
  t.equal(leaks.length, 0, 'no 2xx or 3xx where 401, 403 or 404 was due');
});
