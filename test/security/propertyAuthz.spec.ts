/**
 * Property-level authorization: privileged fields injected into the write bodies are refused or
 * ignored (proved by reading back), and no answer carries secret keys.
 * Figures: accepted privileged fields 0, extra keys 0.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import {
  bearer,
  organization,
  PASSWORD,
  superadmin,
  type Member,
} from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { apiRoutes, fillPath } from '../../server/testing/routeInventory.ts';
import { startTestApp } from '../../server/testing/testApp.ts';
import { GenericStatus } from '../../domain/catalog.ts';

t.setTimeout(600_000);
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Honest Foods' });
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Victim Foods' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Honest Hauling' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Victim Hauling' });

const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: Member, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const answers: string[] = [];
const record = <R extends { body: string }>(response: R) => {
  answers.push(response.body);
  return response;
};

const forgedId = randomUUID();
const privileged = {
  id: forgedId,
  status: 5,
  roleId: 1,
  permissions: [101, 102, 103],
  organizationId: otherShipper.organizationId,
  shipperOrganizationId: otherShipper.organizationId,
  carrierOrganizationId: otherCarrier.organizationId,
  userId: otherShipper.userId,
  price: 1,
  acceptedProposalId: forgedId,
  tourId: forgedId,
  guid: 'L-000001',
  passwordHash: '$argon2id$forged',
  emailConfirmed: true,
  type: 'Carrier',
};
let accepted = 0;
const refuse = (
  t: { ok: (value: unknown, message: string) => unknown },
  ok: boolean,
  what: string,
) => {
  if (!ok) accepted += 1;
  t.ok(ok, what);
};

let loadId = '';
let offerId = '';

t.test('loads: posted and edited with privileged fields', async (t) => {
  const posted = record(
    await call('POST', '/api/loads', shipper, loadBody({ ...privileged, refNumber: 'PROP-1' })),
  );
  t.ok([201, 400].includes(posted.statusCode), `POST loads: ${posted.statusCode}`);
  if (posted.statusCode !== 201) return;
  loadId = posted.json().id;
  refuse(t, loadId !== forgedId, "the id is the server's");
  const load = record(await call('GET', `/api/loads/${loadId}`, shipper)).json();
  refuse(t, load.status === GenericStatus.Created, `status ${load.status} (Created)`);
  refuse(
    t,
    load.shipperOrganizationId === shipper.organizationId,
    "shipper organization is the caller's",
  );
  refuse(
    t,
    load.carrierOrganizationId === null &&
      load.price === null &&
      load.acceptedProposalId === null &&
      load.tourId === null,
    'no carrier, price, proposal or tour',
  );
  refuse(t, load.guid !== 'L-000001', `guid ${load.guid}`);
  refuse(
    t,
    (await call('GET', `/api/loads/${loadId}`, otherShipper)).statusCode === 404,
    "not the victim's load",
  );

  const edited = record(
    await call('PUT', '/api/loads', shipper, {
      ...loadBody({ refNumber: 'PROP-2' }),
      ...privileged,
      loadId,
    }),
  );
  t.ok(
    [200, 400].includes(edited.statusCode),
    `PUT loads: ${edited.statusCode} ${edited.body.slice(0, 100)}`,
  );
  const after = record(await call('GET', `/api/loads/${loadId}`, shipper)).json();
  refuse(
    t,
    after.status === GenericStatus.Created &&
      after.shipperOrganizationId === shipper.organizationId &&
      after.price === null &&
      after.id === loadId,
    'the edit changed no privileged field',
  );
});

t.test('proposals: an offer and an acceptance with privileged fields', async (t) => {
  const offer = record(
    await call('POST', `/api/proposal/${loadId}`, carrier, {
      ...privileged,
      price: 1500,
      message: 'ready',
      loadId: forgedId,
    }),
  );
  t.ok(
    [201, 400].includes(offer.statusCode),
    `POST proposal: ${offer.statusCode} ${offer.body.slice(0, 100)}`,
  );
  const clean =
    offer.statusCode === 201
      ? offer
      : record(
          await call('POST', `/api/proposal/${loadId}`, carrier, { price: 1500, message: 'ready' }),
        );
  offerId = clean.json().id;
  refuse(t, offerId !== forgedId, "the proposal id is the server's");
  const own = record(await call('GET', `/api/proposal/${loadId}/proposal/${offerId}`, shipper));
  t.equal(own.statusCode, 200, own.body);
  const proposal = own.json();
  refuse(
    t,
    proposal.status === 10 || proposal.status === 11,
    `status ${proposal.status}, not accepted`,
  );
  refuse(
    t,
    JSON.stringify(proposal).includes(carrier.organizationId!) &&
      !JSON.stringify(proposal).includes(otherCarrier.organizationId!),
    "the carrier is the caller's organization",
  );

  const accept = record(
    await call('PUT', `/api/proposal/${offerId}`, shipper, {
      status: 5,
      price: 1,
      carrierOrganizationId: otherCarrier.organizationId,
    }),
  );
  t.equal(accept.statusCode, 200, accept.body);
  const load = record(await call('GET', `/api/loads/${loadId}`, shipper)).json();
  refuse(
    t,
    load.price === 1500,
    `accepted at the offered price (${load.price}), not the injected one`,
  );
  refuse(t, load.carrierOrganizationId === carrier.organizationId, 'with the offering carrier');
});

t.test('users: creating and editing with privileged fields', async (t) => {
  const tag = randomUUID().slice(0, 8);
  const asSuperadmin = record(
    await call('POST', '/api/users', shipper, {
      email: `x-${tag}@example.com`,
      username: `x-${tag}`,
      password: PASSWORD,
      roleId: 1,
      userDetails: { name: 'X', phone: '555-555-0100' },
    }),
  );
  refuse(
    t,
    asSuperadmin.statusCode === 403,
    `a shipper creating a Superadmin: ${asSuperadmin.statusCode}`,
  );
  const foreign = record(
    await call('POST', '/api/users', shipper, {
      email: `y-${tag}@example.com`,
      username: `y-${tag}`,
      password: PASSWORD,
      roleId: 2,
      organizationId: otherShipper.organizationId,
      userDetails: { name: 'Y', phone: '555-555-0100' },
    }),
  );
  refuse(t, foreign.statusCode === 404, `a user in another organization: ${foreign.statusCode}`);
  const created = record(
    await call('POST', '/api/users', shipper, {
      email: `z-${tag}@example.com`,
      username: `z-${tag}`,
      password: PASSWORD,
      roleId: 2,
      userDetails: { name: 'Z', phone: '555-555-0100' },
      status: 3,
      permissions: [101],
      id: forgedId,
      emailConfirmed: true,
      passwordHash: '$argon2id$forged',
    }),
  );
  t.equal(created.statusCode, 201, created.body);
  refuse(t, created.json().id !== forgedId, "the user id is the server's");
  const signedIn = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: `z-${tag}@example.com`, password: PASSWORD },
  });
  refuse(t, signedIn.statusCode === 200, 'the password is the one given, the hash was not taken');
  const profile = signedIn.json().user;
  refuse(
    t,
    profile.role.id === 2 &&
      !profile.permissions.includes(101) &&
      profile.organization.id === shipper.organizationId,
    'role, permissions and organization as the server decides',
  );

  const me = record(await call('GET', '/api/account', shipper)).json().user;
  const own = record(
    await call('PUT', '/api/users', shipper, {
      name: me.name,
      email: me.email,
      username: me.username,
      phone: me.phone,
      ...privileged,
      status: 3,
    }),
  );
  t.ok([200, 400].includes(own.statusCode), `PUT users: ${own.statusCode}`);
  const again = record(await call('GET', '/api/account', shipper)).json().user;
  refuse(
    t,
    again.role.id === 2 && again.organizationId === shipper.organizationId && again.status === 2,
    'own role, organization and status unchanged',
  );
  const orgEdit = record(
    await call('PUT', '/api/users/organization', shipper, {
      name: 'Honest Foods',
      address: '1 Main St',
      person: 'Pat',
      email: 'pat@example.com',
      phone: '555-555-0100',
      ...privileged,
      status: 2,
    }),
  );
  t.ok(
    [200, 400].includes(orgEdit.statusCode),
    `PUT users/organization: ${orgEdit.statusCode} ${orgEdit.body.slice(0, 100)}`,
  );
  const organizationAfter = record(await call('GET', '/api/account', shipper)).json().organization;
  refuse(
    t,
    organizationAfter.type === 'Shipper' && organizationAfter.id === shipper.organizationId,
    'organization type and id unchanged',
  );
  const victim = record(await call('GET', '/api/account', otherShipper)).json().organization;
  refuse(t, victim.name === 'Victim Foods', 'the other organization untouched');
});

t.test("searches: saved with another organization's ids", async (t) => {
  const saved = record(
    await call('POST', '/api/searches', carrier, {
      name: 'Injected lane',
      origin: { latitude: 41.8, longitude: -87.6, radius: 50 },
      ...privileged,
      organizationId: otherCarrier.organizationId,
    }),
  );
  t.ok([201, 400].includes(saved.statusCode), `POST searches: ${saved.statusCode}`);
  const mine = record(await call('GET', '/api/searches', carrier)).json();
  const theirs = record(await call('GET', '/api/searches', otherCarrier)).json();
  refuse(t, theirs.length === 0, 'nothing landed in the other organization');
  if (saved.statusCode === 201)
    refuse(
      t,
      mine.some((search: { id: string }) => search.id === saved.json().id) &&
        saved.json().id !== forgedId,
      'saved in the own organization with a server id',
    );
});

const SECRET_KEYS =
  /"(password|passwordHash|password_hash|resetCodeHash|reset_code_hash|codeHash|code_hash|confirmation|clientSecret|client_secret|apiKey|api_key|apiToken|accessKey|secret|secrets|sealed\w*|ciphertext|token_hash|tokenHash|jwtSecret)"\s*:/i;

t.test('no answer carries secret keys', async (t) => {
  const ids = {
    id: loadId,
    loadId,
    proposalId: offerId,
    serviceId: randomUUID(),
    assigneeId: randomUUID(),
    latitude: '41.8',
    longitude: '-87.6',
  };
  for (const route of apiRoutes(app).filter(
    (entry) => entry.method === 'GET' && entry.url !== '/api/events/stream',
  )) {
    for (const user of [admin, shipper, carrier]) {
      for (const id of [loadId, offerId, shipper.userId, shipper.organizationId!]) {
        if (!route.url.includes(':') && id !== loadId) continue;
        const response = await app.inject({
          method: 'GET',
          url: fillPath(route.url, { ...ids, id }),
          headers: bearer(user.token),
        });
        if (String(response.headers['content-type'] ?? '').includes('json'))
          answers.push(response.body);
      }
    }
  }
  // The ELD catalogue names its credential fields (`credentialLabels.clientSecret: "Client secret"`): labels, not values.
  const leaking = answers.filter((body) =>
    SECRET_KEYS.test(body.replace(/"credentialLabels":\{[^{}]*\}/g, '')),
  );
  t.same(
    leaking.map((body) => body.slice(0, 200)),
    [],
    'no secret key in any answer',
  );
  t.comment(
    `property authz: accepted privileged fields ${accepted}; ${answers.length} answers scanned, extra (secret) keys ${leaking.length}`,
  );
  t.equal(accepted, 0);
});
