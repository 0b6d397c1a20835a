// @postgres: table pages: filters, sorting and paging in SQL
/**
 * Organization status over HTTP and socket.io on a real port: a Pending organization's users may
 * sign in, see their own account and wait (403 'Your organization is not active yet' everywhere
 * else, no marketplace room); the Superadmin activates and blocks organizations with
 * PUT organizations/{id}/status, and a block ends every member's sessions, tokens and sockets at
 * once, takes a shipper's open loads off the marketplace and hides a carrier's pending offers.
 */
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { member, multipart, organization, superadmin } from '../identity/fixtures.ts';
import {
  closedByServer,
  connected,
  connectSocket,
  expectStatus,
  listen,
  login,
  postLoad,
  sleep,
  submitOffer,
  waitUntil,
  startListeningApp,
} from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { loadBody } from '../testing/loadBodies.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { app, platform, baseUrl, http, sockets } = await startListeningApp(t);

const NOT_ACTIVE = 'Your organization is not active yet';
const BLOCKED = 'Your organization is blocked';

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Open Goods' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Working Wheels' });

const setStatus = (organizationId: string, status: unknown, token = admin.token) =>
  http('PUT', `/api/organizations/${organizationId}/status`, token, { status });

t.test(
  "a Pending organization's users sign in, see their own account and wait; nothing else",
  async (t) => {
    const pending = await organization(app, platform, 'Carrier', {
      status: 1,
      name: 'Waiting Wagons',
    });
    const pendingShipper = await organization(app, platform, 'Shipper', {
      status: 1,
      name: 'Waiting Goods',
    });
    const { id: openLoad } = await postLoad(http, shipper.token);

    const profile = await expectStatus(http('GET', '/api/profile', pending.token), 200, 'profile');
    t.match(
      profile.organization,
      { id: pending.organizationId, status: 1 },
      'signs in and reads its profile',
    );
    t.equal((await http('GET', '/api/account', pending.token)).status, 200, 'reads its account');
    // Its own e-mail and phone (a new one would wait 24 hours, organizationContactHold.spec.ts).
    const { email, phone } = (await http('GET', '/api/account', pending.token)).json.organization;
    const own = await http('PUT', '/api/users/organization', pending.token, {
      name: 'Waiting Wagons LLC',
      address: '2 Main St, Chicago, IL',
      person: 'Pat',
      email,
      phone,
    });
    t.equal(own.status, 200, 'corrects its organization details');
    t.equal(
      (await http('GET', '/api/organization-services', pending.token)).status,
      200,
      'reads its ELD settings',
    );

    const gated: [string, string, string, unknown?][] = [
      ['carrier', 'GET', '/api/loads/carrier'],
      ['carrier', 'GET', `/api/loads/${openLoad}`],
      ['carrier', 'GET', `/api/proposal/${openLoad}`],
      ['carrier', 'POST', `/api/proposal/${openLoad}`, { price: 1000 }],
      ['carrier', 'GET', '/api/proposals/carrier'],
      ['carrier', 'GET', '/api/searches'],
      ['carrier', 'POST', '/api/searches', { name: 'Lane', origin: null }],
      [
        'carrier',
        'POST',
        '/api/users',
        {
          email: 'driver@wagons.test',
          username: 'wagon-driver',
          password: 'password-123',
          roleId: Role.Driver,
          userDetails: { name: 'Dee', phone: '555-555-0110' },
        },
      ],
      ['carrier', 'GET', '/api/users'],
      ['carrier', 'GET', '/api/tours'],
      ['carrier', 'GET', '/api/tours/assignees'],
      ['carrier', 'GET', `/api/profile/${shipper.userId}`],
      ['carrier', 'GET', '/api/places/autocomplete?q=Chicago'],
      ['shipper', 'GET', '/api/loads/shipper'],
      ['shipper', 'POST', '/api/loads', loadBody()],
      ['shipper', 'GET', '/api/loads/list/getSavedLocations'],
    ];
    for (const [who, method, url, body] of gated) {
      const response = await http(
        method,
        url,
        who === 'carrier' ? pending.token : pendingShipper.token,
        body,
      );
      t.equal(response.status, 403, `${method} ${url} as a Pending ${who}: 403`);
      t.equal(response.json?.message, NOT_ACTIVE, `${method} ${url}: '${NOT_ACTIVE}'`);
    }
    const driversBefore = await platform.database.db
      .selectFrom('users_view')
      .select('id')
      .where('organization_id', '=', pending.organizationId!)
      .execute();
    t.equal(driversBefore.length, 1, 'no user was created');

    // Its socket joins no marketplace room: a load posted now is not heard.
    const waiting = await listen(baseUrl, 'pending carrier', pending.token);
    sockets.push(waiting);
    const working = await listen(baseUrl, 'active carrier', carrier.token);
    sockets.push(working);
    const { id: posted } = await postLoad(http, shipper.token);
    await waitUntil(
      () =>
        working.heard.some((heard) => heard.event === 'load:posted' && heard.payload.id === posted),
      5000,
      'the active carrier hears the load',
    );
    await sleep(200);
    t.notOk(
      waiting.heard.some((heard) => heard.event === 'load:posted'),
      'the Pending carrier hears nothing of the marketplace',
    );

    // Activated: the token it already holds works at once, and a new connection joins the marketplace.
    const events = await watchEvents(platform.store);
    t.same(await expectStatus(setStatus(pending.organizationId!, 'Active'), 200, 'activate'), {
      id: pending.organizationId,
      status: 'Active',
    });
    await events.expect(t, [
      {
        type: 'OrganizationActivated',
        stream: organizationStream(pending.organizationId!),
        data: { organizationId: pending.organizationId },
      },
      { type: 'UserActivated', data: { userId: pending.userId } },
    ]);
    t.equal(
      (await http('GET', '/api/loads/carrier', pending.token)).status,
      200,
      'the token issued while Pending now reads the marketplace',
    );
    const user = await platform.identity.loadUser(pending.userId);
    t.equal(user?.status, 2, 'the user who registered with it is Active too');
    const joined = await listen(baseUrl, 'activated carrier', pending.token);
    sockets.push(joined);
    const { id: later } = await postLoad(http, shipper.token);
    await waitUntil(
      () =>
        joined.heard.some((heard) => heard.event === 'load:posted' && heard.payload.id === later),
      5000,
      'the activated carrier hears the load',
    );
    t.pass('a new connection of the activated carrier hears load:posted');
  },
);

t.test('an unconfirmed e-mail cannot sign in until its code is confirmed', async (t) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const email = `unconfirmed-${tag}@example.com`;
  const form = multipart({
    email,
    username: `unconfirmed-${tag}`,
    password: 'password-123',
    userDetails: { name: 'Una Confirmed', phone: '555-555-0111' },
    organization: {
      name: `Unconfirmed ${tag}`,
      organizationContactInfo: {
        address: '1 Main St, Chicago, IL',
        person: 'Una',
        email: 'office@example.com',
        phone: '555-555-0111',
      },
    },
    acceptTerms: true,
    insuredAmount: 1,
  });
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register/shipper',
    headers: form.headers,
    payload: form.payload,
  });
  t.equal(registered.statusCode, 201, 'registered');
  const before = await http('POST', '/api/login', null, { email, password: 'password-123' });
  t.equal(before.status, 401);
  t.equal(
    before.json.message,
    'Please confirm your e-mail address first: enter the code we sent you',
  );
  const wrongPassword = await http('POST', '/api/login', null, {
    email,
    password: 'not-the-password',
  });
  t.equal(
    wrongPassword.json.message,
    'Invalid email or password',
    'only the right password learns that the address waits for its code',
  );
  const outbox = JSON.stringify(
    await expectStatus(http('GET', '/api/admin/outbox', admin.token), 200, 'outbox'),
  );
  const code =
    new RegExp(`${email.replace(/[.]/g, '\\.')}.*?sign-up code is (\\d{6})`).exec(outbox)?.[1] ??
    /sign-up code is (\d{6})/.exec(outbox)?.[1];
  t.ok(code, 'the code was e-mailed');
  await expectStatus(http('POST', '/api/confirm-signup', null, { email, code }), 200, 'confirm');
  const after = await http('POST', '/api/login', null, { email, password: 'password-123' });
  t.equal(after.status, 200, 'signs in once confirmed (and waits: its organization is Pending)');
  t.equal(after.json.user.organization.status, 1);
});

t.test(
  'PUT organizations/{id}/status: the Superadmin only, a known organization, Active or Blocked',
  async (t) => {
    const events = await watchEvents(platform.store);
    const bad = await setStatus(carrier.organizationId!, 'Pending');
    t.equal(bad.status, 400);
    t.match(
      bad.json,
      { message: "status is 'Active' or 'Blocked'", errors: [{ path: 'status' }] },
      'names the field',
    );
    t.equal((await setStatus(carrier.organizationId!, 2)).status, 400, 'a number is not a status');
    t.equal(
      (await http('PUT', `/api/organizations/${carrier.organizationId}/status`, admin.token, {}))
        .status,
      400,
      'no status',
    );
    t.equal(
      (await setStatus('00000000-0000-4000-8000-000000000000', 'Blocked')).status,
      404,
      'unknown organization',
    );
    t.equal((await setStatus('not-an-id', 'Blocked')).status, 400, 'not an id');
    const byShipper = await setStatus(carrier.organizationId!, 'Blocked', shipper.token);
    t.equal(byShipper.status, 403, 'a shipper may not');
    t.equal(
      (await setStatus(carrier.organizationId!, 'Blocked', carrier.token)).status,
      403,
      'nor the carrier itself',
    );
    t.equal(
      (
        await http('PUT', `/api/organizations/${carrier.organizationId}/status`, null, {
          status: 'Blocked',
        })
      ).status,
      401,
      'nor anyone signed out',
    );
    t.same(
      await expectStatus(setStatus(carrier.organizationId!, 'Active'), 200, 'already active'),
      { id: carrier.organizationId, status: 'Active' },
      'asking for the status it has answers the same',
    );
    t.equal(
      (await http('GET', '/api/loads/carrier', carrier.token)).status,
      200,
      'and changes nothing',
    );
    await events.expect(t, [], { message: 'no refused or idle change appends anything' });
  },
);

t.test(
  "a blocked carrier: every member's tokens, sessions and sockets end; sign-in refused; its pending offers hidden",
  async (t) => {
    const blocked = await organization(app, platform, 'Carrier', { name: 'Rogue Rigs' });
    const driver = await member(app, platform, blocked.organizationId!, Role.Driver);
    const session = await login(http, blocked.email);
    const { id: load } = await postLoad(http, shipper.token);
    const offer = await submitOffer(http, blocked.token, load, 900);
    const other = await submitOffer(http, carrier.token, load, 1100);
    const socket = await listen(baseUrl, 'blocked carrier', blocked.token);
    sockets.push(socket);
    const driverSocket = await listen(baseUrl, 'blocked driver', driver.token);
    sockets.push(driverSocket);
    const closed = closedByServer(socket.socket);
    const driverClosed = closedByServer(driverSocket.socket);

    const before = await expectStatus(
      http('GET', `/api/proposal/${load}`, shipper.token),
      200,
      'offers',
    );
    t.equal(before.data.length, 2, 'the shipper sees both offers before');

    const events = await watchEvents(platform.store);
    t.same(await expectStatus(setStatus(blocked.organizationId!, 'Blocked'), 200, 'block'), {
      id: blocked.organizationId,
      status: 'Blocked',
    });
    await events.expect(t, [
      {
        type: 'OrganizationBlocked',
        stream: organizationStream(blocked.organizationId!),
        data: { organizationId: blocked.organizationId },
      },
    ]);
    for (const [who, token] of [
      ['dispatcher', blocked.token],
      ['driver', driver.token],
      ['a session begun earlier', session.accessToken],
    ] as const) {
      const response = await http('GET', '/api/profile', token);
      t.equal(
        response.status,
        401,
        `the ${who}'s access token, issued before the block, is refused`,
      );
      t.equal(response.json.message, BLOCKED);
    }
    const refreshed = await http('POST', '/api/refresh-token', null, {
      refreshToken: session.refreshToken,
    });
    t.equal(refreshed.status, 401, 'the refresh token is revoked');
    const signIn = await http('POST', '/api/login', null, {
      email: driver.email,
      password: 'correct-horse-1',
    });
    t.equal(signIn.status, 401, 'no member can sign in');
    t.equal(signIn.json.message, BLOCKED);
    const badPassword = await http('POST', '/api/login', null, {
      email: driver.email,
      password: 'wrong-password',
    });
    t.equal(
      badPassword.json.message,
      'Invalid email or password',
      'a wrong password learns nothing of the block',
    );
    await Promise.race([
      Promise.all([closed, driverClosed]),
      sleep(3000).then(() => {
        throw new Error('sockets not closed');
      }),
    ]);
    t.pass("every member's socket is closed");
    const reconnect = await connected(connectSocket(baseUrl, blocked.token)).then(
      () => 'connected',
      (error: Error) => error.message,
    );
    t.ok(
      [BLOCKED, 'Your session has expired. Please sign in again.'].includes(reconnect),
      `a new connection is refused (${reconnect})`,
    );

    const hidden = await expectStatus(
      http('GET', `/api/proposal/${load}`, shipper.token),
      200,
      'offers',
    );
    t.same(
      hidden.data.map((row: { id: string }) => row.id),
      [other],
      "the shipper no longer sees the blocked carrier's pending offer",
    );
    t.equal(hidden.total, 1, 'nor counts it');
    const rows = await expectStatus(
      http('GET', '/api/loads/shipper?pageSize=100', shipper.token),
      200,
      'loads',
    );
    const row = rows.data.find((entry: { id: string }) => entry.id === load);
    t.match(
      row,
      { proposals: 1, openProposals: 1, bestPrice: 1100 },
      "the load's figures leave it out",
    );
    t.equal(
      (await http('GET', `/api/proposal/${load}/proposal/${offer}`, shipper.token)).status,
      404,
      'the offer itself is not found',
    );
    t.equal(
      (await http('PUT', `/api/proposal/${offer}`, shipper.token, { status: 5 })).status,
      404,
      'and cannot be accepted',
    );
    const all = await expectStatus(
      http('GET', `/api/proposal/${load}`, admin.token),
      200,
      'offers as admin',
    );
    t.equal(all.data.length, 2, 'the Superadmin still sees both');

    await events.take();
    t.same(await expectStatus(setStatus(blocked.organizationId!, 'Active'), 200, 'unblock'), {
      id: blocked.organizationId,
      status: 'Active',
    });
    await events.expect(t, [
      { type: 'OrganizationActivated', stream: organizationStream(blocked.organizationId!) },
    ]);
    const shown = await expectStatus(
      http('GET', `/api/proposal/${load}`, shipper.token),
      200,
      'offers',
    );
    t.equal(shown.data.length, 2, 'activated again: the offer is back');
    t.equal(
      (await http('POST', '/api/login', null, { email: driver.email, password: 'correct-horse-1' }))
        .status,
      200,
      'members sign in again',
    );
    t.equal(
      (await http('GET', '/api/profile', blocked.token)).status,
      401,
      'the sessions ended by the block stay ended',
    );
  },
);

t.test(
  "a blocked shipper's open loads leave the marketplace and come back on activation",
  async (t) => {
    const blockedShipper = await organization(app, platform, 'Shipper', { name: 'Shady Shipping' });
    const { id: load } = await postLoad(http, blockedShipper.token);
    const onMarketplace = async () =>
      (
        await expectStatus(
          http('GET', '/api/loads/carrier?pageSize=100', carrier.token),
          200,
          'marketplace',
        )
      ).data.some((row: { id: string }) => row.id === load);
    t.ok(await onMarketplace(), 'on the marketplace');
    await expectStatus(setStatus(blockedShipper.organizationId!, 'Blocked'), 200, 'block');
    t.notOk(await onMarketplace(), "gone from carriers' loads/carrier");
    t.equal(
      (await http('GET', `/api/loads/${load}`, carrier.token)).status,
      404,
      'and from loads/{id}',
    );
    t.equal(
      (await http('POST', `/api/proposal/${load}`, carrier.token, { price: 1000 })).status,
      404,
      'no offer can be made on it',
    );
    await expectStatus(setStatus(blockedShipper.organizationId!, 'Active'), 200, 'activate');
    t.ok(await onMarketplace(), 'back on activation');
    t.equal((await http('GET', `/api/loads/${load}`, carrier.token)).status, 200);
  },
);

t.test(
  "the organization lists show and change the organization's status, not one user's",
  async (t) => {
    const listed = await organization(app, platform, 'Carrier', { name: 'Listed Lines' });
    const rowOf = async (status?: number) => {
      const query = status
        ? `?pageSize=100&filters=${encodeURIComponent(JSON.stringify([{ name: 'status', value: [status] }]))}`
        : '?pageSize=100';
      const answer = await expectStatus(
        http('GET', `/api/users/list/carriers${query}`, admin.token),
        200,
        'carriers list',
      );
      return answer.data.find((row: { id: string }) => row.id === listed.organizationId);
    };
    // Blocking its first user leaves the organization (and the row) Active.
    await expectStatus(
      http('GET', `/api/users/block/${listed.userId}`, admin.token),
      200,
      'block the user',
    );
    t.match(
      await rowOf(),
      {
        status: 2,
        statusName: 'Active',
        organizationStatus: 2,
        user: { status: 3 },
        actions: [14],
      },
      'the row shows the organization Active with its Block action',
    );
    await expectStatus(setStatus(listed.organizationId!, 'Blocked'), 200, 'block the organization');
    t.match(
      await rowOf(),
      { status: 3, statusName: 'Blocked', actions: [13] },
      'Blocked, with its Activate action',
    );
    t.ok(await rowOf(3), 'found under the Blocked filter');
    t.notOk(await rowOf(2), 'not under Active');
  },
);

t.test(
  'blocking one user leaves the other members working; blocking the organization stops them all',
  async (t) => {
    const org = await organization(app, platform, 'Shipper', { name: 'Two Desks' });
    const colleague = await member(app, platform, org.organizationId!, Role.Shipper);
    await expectStatus(
      http('GET', `/api/users/block/${colleague.userId}`, admin.token),
      200,
      'block the colleague',
    );
    t.equal(
      (await http('GET', '/api/loads/shipper', org.token)).status,
      200,
      'the other member still works',
    );
    await expectStatus(setStatus(org.organizationId!, 'Blocked'), 200, 'block the organization');
    t.equal((await http('GET', '/api/loads/shipper', org.token)).status, 401, 'now nobody does');
  },
);
