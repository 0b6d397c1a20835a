/**
 * A booking's trust flags through HTTP, as a fraudster would try them: each case reads the flag on
 * `GET loads/{id}` and on the shipper's loads table row (the same `trust` on both), and the offers
 * the shipper weighs before accepting carry the carrier's flags that apply then. Flags block nothing.
 *
 * - an impostor driver: the assignment refuses a driver of another carrier (404), so the flag arises
 *   when the assigned driver stops being an active member of the booking carrier (blocked);
 * - a driver assigned without a tractor number;
 * - a wrong tractor number typed at the dock, and a truck the ELD places 200 miles from the pickup
 *   (both hold the pickup);
 * - a carrier holding more tours than its registered trucks, at its next booking;
 * - an authority revoked after the booking (a new FMCSA file and the daily check);
 * - a booking by a user who requested a change of the carrier's contact just before;
 * - a release on the driver's code at the dock: Protected.
 */
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { Role } from '../../domain/catalog.ts';
import {
  member,
  multipart,
  organization,
  PASSWORD,
  PDF,
  superadmin,
} from '../identity/fixtures.ts';
import { DEMO_AUTHORITY_FILE } from '../integrations/fmcsa/demoAuthority.ts';
import {
  expectStatus,
  postLoad,
  startListeningApp,
  submitOffer,
  uploadContract,
} from '../realtime/testing.ts';
import { requester } from '../testing/http.ts';
import { inHours } from '../testing/loadBodies.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);

const { app, platform, http: call } = await startListeningApp(t);
const as = requester(app);

const admin = await superadmin(app, platform);
const demoFile = readFileSync(DEMO_AUTHORITY_FILE);
const imported = await as(admin.token).upload('/api/admin/fmcsa/import', {
  files: { file: { content: demoFile, filename: 'carriers.csv', type: 'text/csv' } },
});
if (imported.status !== 202) throw new Error(`import: ${imported.status} ${imported.text}`);

const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Goods' });

/** An Active carrier the Superadmin creates with its DOT number and `trucks` trucks (checked against the import at once). */
async function carrierWith(name: string, dotNumber: number, mcNumber: number, trucks: number) {
  const form = multipart(
    {
      type: 'Carrier',
      name,
      organizationContactInfo: {
        address: '9 Dock Rd, Newark, NJ',
        person: 'Chris',
        email: `office-${dotNumber}@fleet.example.com`,
        phone: '555-555-0177',
      },
      mcNumber,
      dotNumber: String(dotNumber),
      trucks: [{ type: 1, count: trucks }],
    },
    {
      mcAuthority: { content: PDF },
      certificateOfInsurance: { content: PDF },
      w9Form: { content: PDF },
    },
  );
  const created = await app.inject({
    method: 'POST',
    url: '/api/users/organization',
    headers: { ...form.headers, authorization: `Bearer ${admin.token}` },
    payload: form.payload,
  });
  if (created.statusCode !== 201) throw new Error(`carrier: ${created.statusCode} ${created.body}`);
  const organizationId = created.json().id as string;
  return {
    dispatcher: await member(app, platform, organizationId, Role.Carrier),
    driver: await member(app, platform, organizationId, Role.Driver, { name: 'Dana Brooks' }),
    organizationId,
  };
}

/** A carrier without DOT number or trucks on record (nothing to weigh there). */
async function plainCarrier(name: string) {
  const dispatcher = await organization(app, platform, 'Carrier', { name });
  return {
    dispatcher,
    driver: await member(app, platform, dispatcher.organizationId!, Role.Driver),
    organizationId: dispatcher.organizationId!,
  };
}
type Carrier = Awaited<ReturnType<typeof plainCarrier>>;

const newLoad = (pickupInHours = 48) =>
  postLoad(call, shipper.token, {
    pickupTimestampStart: inHours(pickupInHours),
    expiration: inHours(Math.min(pickupInHours / 2, 24)),
    dropOffTimestampStart: inHours(pickupInHours + 10),
  });

/** Offered, accepted and signed: a tour waiting for its driver. */
async function booked(carrier: Carrier, pickupInHours = 48) {
  const load = await newLoad(pickupInHours);
  const offerId = await submitOffer(call, carrier.dispatcher.token, load.id, 1500);
  await expectStatus(
    call('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }),
    200,
    'accept',
  );
  const { tourId } = (await as(shipper).get(`/api/loads/${load.id}`)).body;
  await uploadContract(call, carrier.dispatcher.token, load.id);
  return { loadId: load.id as string, tourId: tourId as string, offerId };
}

const assign = async (carrier: Carrier, tourId: string, truck?: unknown) => {
  const answer = await as(carrier.dispatcher).post(
    `/api/tours/${tourId}/assign/${carrier.driver.userId}`,
    truck,
  );
  if (answer.status !== 200) throw new Error(`assign: ${answer.status} ${answer.text}`);
};

type Trust = { state: string; reasons: { code: string; text: string }[] };
/** The load's trust on its details and on the shipper's table row, which must agree. */
async function trustOf(t: Test, loadId: string): Promise<Trust> {
  const detail = await as(shipper).get(`/api/loads/${loadId}`);
  t.equal(detail.status, 200);
  const table = await as(shipper).get('/api/loads/shipper', { pageSize: 100 });
  const row = table.body.data.find((entry: { id: string }) => entry.id === loadId);
  t.ok(row, "the load's row in the shipper's table");
  t.same(row.trust, detail.body.trust, 'the table row and the details agree');
  return detail.body.trust;
}
const codes = (trust: Trust) => trust.reasons.map((reason) => reason.code);

/** The trust of each offer on the load, as the shipper's offers list shows it. */
async function offerTrust(loadId: string): Promise<Map<string, Trust>> {
  const answer = await as(shipper).get(`/api/proposal/${loadId}`, { pageSize: 25 });
  return new Map(
    answer.body.data.map((offer: { id: string; trust: Trust }) => [offer.id, offer.trust]),
  );
}

const DOCK_CODE_WINDOW_HOURS = 0.5;
/** A tour assigned with tractor T-481 whose pickup is half an hour out, and its dock link. */
async function atTheDock(carrier: Carrier) {
  const tour = await booked(carrier, DOCK_CODE_WINDOW_HOURS);
  await assign(carrier, tour.tourId, { tractorNumber: 'T-481', trailerNumber: 'TR-22' });
  const link = await as(shipper).post(`/api/tours/${tour.tourId}/dock-link`);
  if (link.status !== 201) throw new Error(`dock link: ${link.status} ${link.text}`);
  const code = async () =>
    (await as(carrier.driver).get(`/api/tours/${tour.tourId}/release-code`)).body.code as string;
  const release = (body: unknown) =>
    as(null).post(`/api/dock/${encodeURIComponent(link.body.token)}/release`, body);
  return { ...tour, code, release };
}

t.test('a load without a booking, and a clean booking, read ready with no reasons', async (t) => {
  const carrier = await plainCarrier('Clean Lines');
  const open = await newLoad();
  t.same(await trustOf(t, open.id), { state: 'ready', reasons: [] });
  const tour = await booked(carrier);
  await assign(carrier, tour.tourId, { tractorNumber: 'CL-100', trailerNumber: null });
  t.same(await trustOf(t, tour.loadId), { state: 'ready', reasons: [] });

  const asCarrier = await as(carrier.dispatcher).get(`/api/loads/${tour.loadId}`);
  t.equal(asCarrier.status, 200);
  t.notOk('trust' in asCarrier.body, "the flags are the shipper's, not the carrier's");
  t.equal(
    (await as(otherShipper).get(`/api/loads/${tour.loadId}`)).status,
    404,
    "another shipper's load stays unknown",
  );
});

t.test(
  'an impostor driver: refused at assignment, flagged once the driver is no longer an active member',
  async (t) => {
    const carrier = await plainCarrier('Honest Haulers');
    const impostorCarrier = await plainCarrier('Shadow Freight');
    const tour = await booked(carrier);
    const refused = await as(carrier.dispatcher).post(
      `/api/tours/${tour.tourId}/assign/${impostorCarrier.driver.userId}`,
      { tractorNumber: 'SH-1' },
    );
    t.equal(refused.status, 404, "another carrier's driver cannot be assigned");
    await assign(carrier, tour.tourId, { tractorNumber: 'HH-12', trailerNumber: null });
    t.same(await trustOf(t, tour.loadId), { state: 'ready', reasons: [] });

    const blocked = await as(admin.token).get(`/api/users/block/${carrier.driver.userId}`);
    t.equal(blocked.status, 200);
    const trust = await trustOf(t, tour.loadId);
    t.equal(trust.state, 'flagged');
    t.same(trust.reasons, [
      {
        code: 'driver_not_of_carrier',
        text: 'The assigned driver is not an active member of the carrier',
      },
    ]);
  },
);

t.test('a driver assigned without a tractor number (an older caller) is flagged', async (t) => {
  const carrier = await plainCarrier('Old Client Carriers');
  const tour = await booked(carrier);
  await assign(carrier, tour.tourId);
  t.same(codes(await trustOf(t, tour.loadId)), ['no_tractor_number']);
  const tours = await as(shipper).get('/api/tours', { pageSize: 100 });
  const row = tours.body.data.find((entry: { id: string }) => entry.id === tour.tourId);
  t.same(codes(row.trust), ['no_tractor_number'], "the shipper's tours table too");
  const carrierRows = await as(carrier.dispatcher).get('/api/tours', { pageSize: 100 });
  t.notOk(
    'trust' in carrierRows.body.data.find((entry: { id: string }) => entry.id === tour.tourId),
    "not on the carrier's",
  );
  await assign(carrier, tour.tourId, { tractorNumber: 'OC-7', trailerNumber: null });
  t.same(await trustOf(t, tour.loadId), { state: 'ready', reasons: [] }, 'named later: ready');
});

t.test('a wrong tractor number typed at the dock holds the pickup: flagged', async (t) => {
  const carrier = await plainCarrier('Dock Test Lines');
  const dock = await atTheDock(carrier);
  const answer = await dock.release({ code: await dock.code(), tractorNumber: 'ZZ-999' });
  t.equal(answer.body.state, 'held');
  const trust = await trustOf(t, dock.loadId);
  t.equal(trust.state, 'flagged');
  t.same(trust.reasons, [{ code: 'pickup_held', text: 'The dock held the pickup' }]);
});

t.test('a truck the ELD places 200 miles from the pickup holds it: flagged', async (t) => {
  const carrier = await plainCarrier('Far Away Freight');
  const dock = await atTheDock(carrier);
  await expectStatus(
    call('PUT', `/api/tours/${dock.tourId}/status`, carrier.driver.token, {
      status: 3,
      message: 'Rolling',
    }),
    200,
    'dispatch',
  );
  // The ELD poller's own path (no caller): a truck near Toledo, about 200 miles east of Chicago.
  const recorded = await platform.marketplace.recordPositions(
    null,
    dock.tourId,
    [
      {
        latitude: 41.8781,
        longitude: -83.75,
        speed: 0,
        heading: 0,
        accuracy: null,
        recordedAt: new Date().toISOString(),
      },
    ],
    new Date().toISOString(),
  );
  await platform.runner.waitFor(['tourPositions'], recorded.position);
  const answer = await dock.release({ code: await dock.code() });
  t.equal(answer.body.state, 'held');
  t.same(
    answer.body.reasons.map((reason: { code: string }) => reason.code),
    ['truck_far_away'],
  );
  t.same(codes(await trustOf(t, dock.loadId)), ['pickup_held']);
});

t.test('the right code and tractor at the dock: Protected', async (t) => {
  const carrier = await plainCarrier('Released Trucking');
  const dock = await atTheDock(carrier);
  t.same(await trustOf(t, dock.loadId), { state: 'ready', reasons: [] });
  const answer = await dock.release({ code: await dock.code(), tractorNumber: 't 481' });
  t.equal(answer.body.state, 'released');
  t.same(await trustOf(t, dock.loadId), { state: 'protected', reasons: [] });
});

t.test('a carrier holding more tours than its trucks: flagged at its next booking', async (t) => {
  const carrier = await carrierWith('One Truck Express', 2456782, 723456, 1);
  const first = await booked(carrier);
  await assign(carrier, first.tourId, { tractorNumber: 'OT-1', trailerNumber: null });
  t.same(await trustOf(t, first.loadId), { state: 'ready', reasons: [] }, 'its one truck');

  // Before acceptance, the shipper sees that this offer would overbook the carrier.
  const second = await newLoad();
  const offerId = await submitOffer(call, carrier.dispatcher.token, second.id, 1400);
  const offered = (await offerTrust(second.id)).get(offerId)!;
  t.same(codes(offered), ['overbooked'], "the offer's flag before acceptance");
  t.equal(offered.state, 'flagged');
  await expectStatus(
    call('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }),
    200,
    'accepting is not blocked',
  );
  const trust = await trustOf(t, second.id);
  t.same(trust.reasons, [
    {
      code: 'overbooked',
      text: 'The carrier holds more loads at once than the trucks it registered',
    },
  ]);
  t.same(await trustOf(t, first.loadId), { state: 'ready', reasons: [] }, 'the first is not');
});

t.test('an authority revoked after the booking flags the load at the next read', async (t) => {
  const carrier = await carrierWith('Blue Ridge Freight LLC', 2345671, 712345, 4);
  const tour = await booked(carrier);
  await assign(carrier, tour.tourId, { tractorNumber: 'BR-1', trailerNumber: null });
  t.same(await trustOf(t, tour.loadId), { state: 'ready', reasons: [] });

  const revoked = demoFile
    .toString('utf8')
    .replace(
      'MC712345,2345671,BLUE RIDGE FREIGHT LLC,,A,A,N,750,1000,0,',
      'MC712345,2345671,BLUE RIDGE FREIGHT LLC,,I,I,N,750,0,0,REVOKED',
    );
  const reimported = await as(admin.token).upload('/api/admin/fmcsa/import', {
    files: { file: { content: Buffer.from(revoked), filename: 'carriers.csv', type: 'text/csv' } },
  });
  t.equal(reimported.status, 202);
  // The daily check, two days on: it records CarrierAuthorityChanged on the carrier's stream.
  t.ok((await platform.authorityCheck!.sweep(inHours(50))) >= 1, 'the change is recorded');
  const trust = await trustOf(t, tour.loadId);
  t.equal(trust.state, 'flagged');
  t.same(codes(trust), ['authority_inactive', 'insurance_expired']);

  const next = await newLoad();
  const offerId = await submitOffer(call, carrier.dispatcher.token, next.id, 1300);
  t.same(
    codes((await offerTrust(next.id)).get(offerId)!),
    ['authority_inactive', 'insurance_expired'],
    'its next offer shows it before acceptance',
  );
});

t.test('a booking made right after its author asked to change the carrier contact', async (t) => {
  const carrier = await plainCarrier('Takeover Transport');
  const colleague = await member(app, platform, carrier.organizationId, Role.Carrier);
  // The dispatcher asks to change the carrier's contact e-mail (held 24 hours): that request is
  // what the flag weighs, not whether the change applies.
  const requested = await call('PUT', '/api/users/organization', carrier.dispatcher.token, {
    name: 'Takeover Transport',
    address: '1 Dock St, Gary, IN',
    person: 'New Office',
    email: 'new-office@takeover.example.com',
    phone: '555-555-0142',
    password: PASSWORD,
  });
  t.equal(requested.status, 202, 'the change is held for 24 hours');

  const load = await newLoad();
  const fromRequester = await submitOffer(call, carrier.dispatcher.token, load.id, 1500);
  const other = await newLoad();
  const fromColleague = await submitOffer(call, colleague.token, other.id, 1500);
  t.same(codes((await offerTrust(load.id)).get(fromRequester)!), ['contact_changed_recently']);
  t.same(
    (await offerTrust(other.id)).get(fromColleague),
    { state: 'ready', reasons: [] },
    "a colleague's offer is not the requester's",
  );
  await expectStatus(
    call('PUT', `/api/proposal/${fromRequester}`, shipper.token, { status: 5 }),
    200,
    'accept',
  );
  const trust = await trustOf(t, load.id);
  t.same(trust.reasons, [
    {
      code: 'contact_changed_recently',
      text: "The booking was made within 24 hours of a change of the carrier's contact details",
    },
  ]);
});
