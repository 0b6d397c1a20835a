// @postgres: the whole flow through every read model's SQL
import t from 'tap';
import { PDFDocument } from 'pdf-lib';
import {
  bearer,
  member,
  multipart,
  organization,
  PDF,
  PNG,
  superadmin,
} from '../identity/fixtures.ts';
import {
  CHICAGO,
  GARY,
  inHours,
  INDIANAPOLIS,
  loadBody,
  LOS_ANGELES,
  stop,
} from '../testing/loadBodies.ts';
import { watchEvents } from '../testing/events.ts';
import { startTestApp } from '../testing/testApp.ts';
import { parseLogPosition } from '../http/consistency.ts';

/**
 * The whole run of one shipment through HTTP: post, find, bid, counter, accept, contract, assign,
 * drive, chat, deliver, rate, and replay the history; with the refusals along the way.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Goods' });
const pendingShipper = await organization(app, platform, 'Shipper', {
  name: 'Newcomer Freight',
  status: 1,
});
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const carrierB = await organization(app, platform, 'Carrier', { name: 'Beta Trucking' });
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });
const otherDriver = await member(app, platform, carrierB.organizationId!, 4, {
  name: 'Olga Other',
});

const get = (url: string, token?: string) =>
  app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const send = (
  method: 'PUT' | 'POST' | 'DELETE',
  url: string,
  token: string | null,
  payload?: unknown,
) =>
  app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const table = (url: string, token: string, params: Record<string, unknown> = {}) =>
  get(
    `${url}?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])))}`,
    token,
  );

let loadId = '';
let guid = '';
let offerId = '';
let offerB = '';
let tourId = '';
let postedAt = '';
let beforeAcceptance = '';

t.test('posting a load: rules, tenants and the shipper table', async (t) => {
  const events = await watchEvents(platform.store);
  const noAuth = await send('POST', '/api/loads', null, loadBody());
  t.equal(noAuth.statusCode, 401, 'anonymous: 401');
  t.equal(
    (await send('POST', '/api/loads', carrier.token, loadBody())).statusCode,
    403,
    'a carrier cannot post loads',
  );
  const pending = await send('POST', '/api/loads', pendingShipper.token, loadBody());
  t.equal(pending.statusCode, 403, 'a Pending organization cannot post loads');
  t.match(pending.json().message, /not active/);

  const past = await send(
    'POST',
    '/api/loads',
    shipper.token,
    loadBody({ pickupTimestampStart: inHours(-2), expiration: inHours(-3) }),
  );
  t.equal(past.statusCode, 400);
  t.ok(
    past
      .json()
      .errors.some(
        (error: { path: string; message: string }) =>
          error.path === 'pickupTimestampStart' &&
          error.message === "Start can't be before current date and time.",
      ),
  );
  const noEquipment = await send(
    'POST',
    '/api/loads',
    shipper.token,
    loadBody({ loadEquipment: [] }),
  );
  t.equal(noEquipment.statusCode, 400);
  t.ok(
    noEquipment
      .json()
      .errors.some(
        (error: { message: string }) =>
          error.message === 'Please select at least one load equipment',
      ),
  );

  // A moment strictly before the posting: the server may stamp it within the same millisecond.
  postedAt = new Date(Date.now() - 1).toISOString();
  const body = loadBody({
    locations: [
      stop(CHICAGO, 1, 'Acme Paper Mill', { saveLocation: true }),
      stop(GARY, 3, 'Gary Cross Dock'),
      stop(INDIANAPOLIS, 4, 'Hoosier Print Works'),
    ],
  });
  const posted = await send('POST', '/api/loads', shipper.token, body);
  t.equal(posted.statusCode, 201, posted.body);
  ({ id: loadId, guid } = posted.json());
  t.match(guid, /^L-\d{6}$/);
  await events.expect(
    t,
    [
      {
        type: 'LoadPosted',
        stream: `load-${loadId}`,
        data: {
          loadId,
          guid,
          shipperOrganizationId: shipper.organizationId,
          details: { weight: 42000, commodity: 'Paper' },
        },
        metadata: { userId: shipper.userId, organizationId: shipper.organizationId },
      },
      'LocationSaved',
    ],
    { message: 'the refusals appended nothing; the post its load' },
  );

  const rows = (await table('/api/loads/shipper', shipper.token)).json();
  t.equal(rows.total, 1, 'the new load is in the list at once (read-your-writes)');
  t.match(rows.data[0], {
    id: loadId,
    guid,
    status: 1,
    statusName: 'Created',
    proposals: 0,
    newProposals: 0,
    stopsCount: 3,
  });
  t.same(rows.data[0].actions, [1, 2, 3, 4, 11, 12]);
  t.equal(
    (await table('/api/loads/shipper', otherShipper.token)).json().total,
    0,
    'another shipper sees none of it',
  );

  const saved = (await get('/api/loads/list/getSavedLocations', shipper.token)).json();
  t.match(saved, [
    {
      name: 'Acme Paper Mill',
      address: 'Chicago, IL',
      contactPhone: '(312) 555-0101',
      locationType: 1,
    },
  ]);
  t.same((await get('/api/loads/list/getSavedLocations', otherShipper.token)).json(), []);
});

t.test('one load: contacts only for those who may see them; other tenants get 404', async (t) => {
  const own = (await get(`/api/loads/${loadId}`, shipper.token)).json();
  t.equal(own.locations[0].contactName, 'Pat Dock');
  t.equal(own.locations.length, 3);
  const asCarrier = await get(`/api/loads/${loadId}`, carrier.token);
  t.equal(asCarrier.statusCode, 200, 'an open load is on the marketplace');
  t.equal(
    asCarrier.json().locations[0].contactName,
    null,
    'facility contacts hidden from carriers before acceptance',
  );
  t.equal(asCarrier.json().contactsHidden, true);
  t.equal((await get(`/api/loads/${loadId}`, otherShipper.token)).statusCode, 404);
  t.equal(
    (await get(`/api/loads/${loadId}`, driver.token)).statusCode,
    403,
    'a driver reads its tours, not loads',
  );
  t.equal(
    (await get('/api/loads/00000000-0000-4000-8000-000000000000', shipper.token)).statusCode,
    404,
  );
  const edit = await send('PUT', '/api/loads', otherShipper.token, { ...loadBody(), loadId });
  t.equal(edit.statusCode, 404, "editing another organization's load: 404");
});

t.test(
  'the marketplace finds it by origin and destination radius, equipment and weight',
  async (t) => {
    const near = (
      await table('/api/loads/carrier', carrier.token, {
        filters: [{ name: 'origin', value: [{ ...CHICAGO, radius: 50 }] }],
      })
    ).json();
    t.equal(near.total, 1);
    t.match(near.data[0], { id: loadId, guid, myProposal: null });
    t.ok(
      near.data[0].distance > 150 && near.data[0].distance < 200,
      `route miles ${near.data[0].distance}`,
    );
    t.same(near.data[0].actions, [1, 5]);
    const far = (
      await table('/api/loads/carrier', carrier.token, {
        filters: [{ name: 'origin', value: [{ ...LOS_ANGELES, radius: 200 }] }],
      })
    ).json();
    t.equal(far.total, 0, 'not within 200 miles of Los Angeles');
    const destination = (
      await table('/api/loads/carrier', carrier.token, {
        filters: [{ name: 'destination', value: [{ ...INDIANAPOLIS, radius: 50 }] }],
      })
    ).json();
    t.equal(destination.total, 1);
    t.equal(
      (
        await table('/api/loads/carrier', carrier.token, {
          filters: [{ name: 'equipment', value: [32] }],
        })
      ).json().total,
      0,
      'other equipment',
    );
    t.equal(
      (
        await table('/api/loads/carrier', carrier.token, {
          filters: [{ name: 'maxWeight', value: [40000] }],
        })
      ).json().total,
      0,
      'too heavy',
    );
    t.equal(
      (
        await table('/api/loads/carrier', carrier.token, {
          filters: [{ name: 'origin', value: [{ ...CHICAGO, radius: 75 }] }],
        })
      ).statusCode,
      400,
      'radius is 50, 100, 150 or 200',
    );
    t.equal(
      (await table('/api/loads/carrier', shipper.token)).statusCode,
      403,
      'shippers have no marketplace',
    );
  },
);

t.test(
  'offers: submit, revise, counter, accept the counter, accept; the others are declined',
  async (t) => {
    const events = await watchEvents(platform.store);
    t.equal(
      (await send('POST', `/api/proposal/${loadId}`, carrier.token, { price: 0, message: 'x' }))
        .statusCode,
      400,
      'price > 0',
    );
    const first = await send('POST', `/api/proposal/${loadId}`, carrier.token, {
      price: 1500,
      message: 'Ready tomorrow',
      eldTruckName: 'Truck 12',
    });
    t.equal(first.statusCode, 201, first.body);
    offerId = first.json().id;
    await events.expect(
      t,
      [
        {
          type: 'ProposalSubmitted',
          stream: `proposal-${offerId}`,
          data: {
            proposalId: offerId,
            loadId,
            price: 1500,
            carrierOrganizationId: carrier.organizationId,
          },
        },
        {
          type: 'ProposalListed',
          stream: `loadoffers-${loadId}`,
          data: { loadId, proposalId: offerId },
        },
      ],
      { message: 'a price of 0 appended nothing; the offer' },
    );
    const revised = await send('POST', `/api/proposal/${loadId}`, carrier.token, {
      price: 1450,
      message: 'Better price',
      eldTruckName: 'Truck 12',
    });
    t.equal(revised.statusCode, 200, 'a second submit revises');
    t.equal(revised.json().id, offerId, 'the same proposal');
    await events.expect(t, [
      { type: 'ProposalRevised', stream: `proposal-${offerId}`, data: { price: 1450 } },
    ]);
    const b = await send('POST', `/api/proposal/${loadId}`, carrierB.token, {
      price: 1600,
      message: 'We can do it',
    });
    t.equal(b.statusCode, 201);
    offerB = b.json().id;
    t.equal(
      (await send('POST', `/api/proposal/${loadId}`, shipper.token, { price: 1000 })).statusCode,
      403,
      'shippers do not bid',
    );

    const listed = (await table('/api/loads/shipper', shipper.token)).json().data[0];
    t.match(listed, {
      statusName: 'Bid Submitted',
      proposals: 2,
      openProposals: 2,
      newProposals: 2,
      bestPrice: 1450,
    });

    const offers = (
      await table(`/api/proposal/${loadId}`, shipper.token, {
        order: { column: 'price', direction: 'ASC' },
      })
    ).json();
    t.equal(offers.total, 2);
    t.match(offers.data[0], {
      id: offerId,
      price: 1450,
      message: 'Better price',
      eldTruckName: 'Truck 12',
      carrier: { name: 'Zeta Hauling' },
      canAccept: true,
    });
    t.equal(
      (await table('/api/loads/shipper', shipper.token)).json().data[0].newProposals,
      0,
      'opening the offers clears the badge',
    );
    const ownOnly = (await table(`/api/proposal/${loadId}`, carrierB.token)).json();
    t.equal(ownOnly.total, 1, 'a carrier sees only its own offer');
    t.equal(ownOnly.data[0].id, offerB);
    t.equal((await table(`/api/proposal/${loadId}`, otherShipper.token)).statusCode, 404);
    t.equal(
      (await get(`/api/proposal/${loadId}/proposal/${offerB}`, carrier.token)).statusCode,
      404,
      "another carrier's offer is not found",
    );

    t.equal(
      (await send('PUT', `/api/proposal/${offerId}`, carrier.token, { status: 5 })).statusCode,
      403,
      'the carrier cannot accept its own offer',
    );
    t.equal(
      (await send('PUT', `/api/proposal/${offerId}`, otherShipper.token, { status: 5 })).statusCode,
      404,
    );
    const counter = await send('PUT', `/api/proposal/${offerId}`, shipper.token, {
      status: 11,
      price: 1400,
      message: 'Can you do 1400?',
    });
    t.equal(counter.statusCode, 200, counter.body);
    await events.expect(
      t,
      [
        'ProposalSubmitted',
        'ProposalListed',
        { type: 'ProposalCountered', stream: `proposal-${offerId}`, data: { price: 1400 } },
      ],
      { message: "the second carrier's offer; the refusals appended nothing; the counter" },
    );
    const acceptWhileCountered = await send('PUT', `/api/proposal/${offerId}`, shipper.token, {
      status: 5,
    });
    t.equal(acceptWhileCountered.statusCode, 409, 'accepting while the counter is open');
    t.match((await get(`/api/proposal/${loadId}/proposal/${offerId}`, carrier.token)).json(), {
      status: 11,
      statusName: 'Pending Acceptance',
      counterPrice: 1400,
    });
    t.equal(
      (await send('PUT', `/api/proposal/${offerId}`, carrier.token, { status: 10 })).statusCode,
      200,
      'the carrier accepts the counter',
    );
    await events.expect(t, [{ type: 'CounterAccepted', stream: `proposal-${offerId}` }], {
      message: 'the refused acceptance appended nothing; the counter accepted',
    });
    t.match((await get(`/api/proposal/${loadId}/proposal/${offerId}`, shipper.token)).json(), {
      status: 10,
      price: 1400,
      counterPrice: null,
    });

    beforeAcceptance = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const accepted = await send('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 });
    t.equal(accepted.statusCode, 200, accepted.body);
    await events.expect(t, [
      {
        type: 'LoadProposalAccepted',
        stream: `load-${loadId}`,
        data: { loadId, proposalId: offerId, price: 1400 },
      },
      { type: 'ProposalAccepted', stream: `proposal-${offerId}` },
      { type: 'ProposalDeclined', stream: `proposal-${offerB}` },
      { type: 'TourOpened', data: { loadId, price: 1400 } },
    ]);
    t.equal(
      (await send('PUT', `/api/proposal/${offerB}`, shipper.token, { status: 5 })).statusCode,
      409,
      'only one acceptance per load',
    );
    t.match((await get(`/api/proposal/${loadId}/proposal/${offerB}`, carrierB.token)).json(), {
      status: 12,
      statusName: 'Declined',
    });
    const row = (await table('/api/loads/shipper', shipper.token)).json().data[0];
    t.match(row, { status: 7, statusName: 'Bid Accepted', loadStatus: 5, price: 1400 });
    tourId = row.tourId;
    t.ok(tourId, 'a tour opened');
    const contacts = (await get(`/api/loads/${loadId}`, carrier.token)).json();
    t.equal(
      contacts.locations[0].contactName,
      'Pat Dock',
      'the accepted carrier sees the facility contacts',
    );
    t.equal(
      (await get(`/api/loads/${loadId}`, carrierB.token)).json().locations[0].contactName,
      null,
      'the declined carrier still does not',
    );
    t.equal(
      (await table('/api/loads/carrier', carrierB.token)).json().total,
      0,
      'the load left the marketplace',
    );
  },
);

t.test('rate confirmation and signed contract', async (t) => {
  const events = await watchEvents(platform.store);
  const pdf = await get(`/api/proposal/${offerId}/rate-confirmation`, carrier.token);
  t.equal(pdf.statusCode, 200, pdf.body.slice(0, 200));
  t.equal(pdf.headers['content-type'], 'application/pdf');
  t.match(
    pdf.headers['content-disposition'],
    new RegExp(`attachment; filename="rate-confirmation-${guid}\\.pdf"`),
  );
  t.ok(pdf.rawPayload.subarray(0, 5).toString() === '%PDF-');
  const document = await PDFDocument.load(pdf.rawPayload);
  t.ok(document.getPageCount() >= 1);
  t.equal(
    (await get(`/api/proposal/${offerB}/rate-confirmation`, carrierB.token)).statusCode,
    404,
    'no confirmation for a declined offer',
  );
  t.equal(
    (await get(`/api/proposal/${offerId}/rate-confirmation`, carrierB.token)).statusCode,
    404,
  );
  const history = (await get(`/api/loads/${loadId}/history`, carrier.token)).json();
  const issued = history.events.find(
    (event: { type: string }) => event.type === 'RateConfirmationIssued',
  );
  t.equal(
    issued?.data.sha256,
    pdf.headers['x-content-sha256'],
    'the hash of the bytes handed out is in the audit trail',
  );

  const upload = (token: string, form: ReturnType<typeof multipart>) =>
    app.inject({
      method: 'POST',
      url: `/api/proposal/load/${loadId}`,
      headers: { ...form.headers, ...bearer(token) },
      payload: form.payload,
    });
  const notPdf = multipart(undefined, {
    contract: { content: PNG, filename: 'contract.pdf', type: 'application/pdf' },
  });
  notPdf.payload = Buffer.concat([
    Buffer.from(
      `--${notPdf.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`,
    ),
    notPdf.payload,
  ]);
  t.equal(
    (await upload(carrier.token, notPdf)).statusCode,
    415,
    'a PNG named .pdf is refused by its bytes',
  );
  const form = multipart(undefined, { contract: { content: PDF, filename: 'signed.pdf' } });
  form.payload = Buffer.concat([
    Buffer.from(
      `--${form.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`,
    ),
    form.payload,
  ]);
  t.equal((await upload(carrierB.token, form)).statusCode, 404, 'only the winning carrier');
  const signed = await upload(carrier.token, form);
  t.equal(signed.statusCode, 200, signed.body);
  await events.expect(
    t,
    [
      'RateConfirmationIssued',
      { type: 'ContractUploaded', stream: `proposal-${offerId}` },
      { type: 'LoadContractSigned', stream: `load-${loadId}` },
      { type: 'CarrierConfirmed', stream: `tour-${tourId}` },
    ],
    {
      message:
        'the rate confirmation handed out; the refused uploads appended nothing; the contract',
    },
  );
  t.match((await table('/api/loads/shipper', shipper.token)).json().data[0], {
    status: 8,
    statusName: 'Carrier Confirmed',
    loadStatus: 6,
  });
});

t.test('assigning a driver and running the tour', async (t) => {
  const events = await watchEvents(platform.store);
  const assignees = (await get('/api/tours/assignees', carrier.token)).json();
  t.match(assignees, [{ id: driver.userId, name: 'Dan Driver' }]);
  t.equal(
    (await send('POST', `/api/tours/${tourId}/assign/${otherDriver.userId}`, carrier.token))
      .statusCode,
    404,
    "another carrier's driver",
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrierB.token)).statusCode,
    404,
    "another carrier's tour",
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token)).statusCode,
    200,
  );
  await events.expect(
    t,
    [
      {
        type: 'TourAssigned',
        stream: `tour-${tourId}`,
        data: { tourId, assigneeId: driver.userId },
      },
      { type: 'TourStatusChanged', data: { to: 2 } },
      'TourEventAdded',
    ],
    { message: 'the refused assignments appended nothing; the assignment' },
  );
  const assigned = (await table('/api/tours/assigned', driver.token)).json();
  t.match(assigned.data, [
    { id: tourId, status: 2, statusName: 'Ready for pickup', driver: { name: 'Dan Driver' } },
  ]);
  t.equal((await table('/api/tours/assigned', otherDriver.token)).json().total, 0);
  t.equal((await get(`/api/tours/${tourId}`, otherDriver.token)).statusCode, 404);

  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/positions`, carrier.token, {
        latitude: 41,
        longitude: -87,
      })
    ).statusCode,
    403,
    'positions come from the driver',
  );
  t.equal(
    (await send('PUT', `/api/tours/${tourId}/status`, shipper.token, { status: 3 })).statusCode,
    403,
    'the shipper does not dispatch',
  );
  t.equal(
    (await send('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 9 })).statusCode,
    409,
    'Ready for pickup cannot jump to In Transit',
  );
  t.equal(
    (
      await send('PUT', `/api/tours/${tourId}/status`, driver.token, {
        status: 3,
        message: 'Rolling',
      })
    ).statusCode,
    200,
  );

  await events.expect(
    t,
    [
      { type: 'TourStatusChanged', stream: `tour-${tourId}`, data: { to: 3, message: 'Rolling' } },
      'TourEventAdded',
    ],
    { message: 'the refused changes appended nothing; the dispatch' },
  );
  const badBatch = await send('POST', `/api/tours/${tourId}/positions`, driver.token, [
    { latitude: 200, longitude: 0 },
  ]);
  t.equal(badBatch.statusCode, 400);
  const start = Date.now() - 60_000;
  const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
  const batch = [
    { latitude: 41.95, longitude: -87.7, speed: 30, recordedAt: at(0) },
    {
      latitude: CHICAGO.latitude + 0.001,
      longitude: CHICAGO.longitude,
      speed: 2,
      recordedAt: at(10),
    },
    {
      latitude: CHICAGO.latitude + 0.0012,
      longitude: CHICAGO.longitude + 0.0005,
      speed: 0,
      recordedAt: at(20),
    },
    { latitude: 41.7, longitude: -87.5, speed: 55, heading: 140, recordedAt: at(30) },
  ];
  const posted = await send('POST', `/api/tours/${tourId}/positions`, driver.token, batch);
  t.equal(posted.statusCode, 202, posted.body);
  t.equal(posted.json().accepted, 4);
  t.ok(
    await platform.runner.waitFor(
      ['tourPositions', 'marketplace'],
      await platform.store.committedHead(),
      30_000,
    ),
    'the read models caught up',
  );

  const tourEvents = (await get(`/api/tours/${tourId}/events`, shipper.token)).json();
  const types = tourEvents.map((event: { type: string }) => event.type);
  t.ok(
    types.includes('arrived') && types.includes('departed'),
    `arrival and departure recorded: ${types.join(', ')}`,
  );
  t.equal(
    types.filter((type: string) => type === 'arrived').length,
    1,
    'one arrival despite the jitter',
  );
  const tour = (await get(`/api/tours/${tourId}`, shipper.token)).json();
  t.equal(tour.status, 9, 'leaving the first pickup moved the tour to In Transit');

  const track = (await get(`/api/tours/track/${tourId}`, shipper.token)).json();
  t.equal(track.trail.length, 4);
  t.match(track.lastPosition, { latitude: 41.7, longitude: -87.5, speed: 55 });
  t.ok(track.eta && Date.parse(track.eta.at) > Date.now(), 'an ETA in the future');
  t.ok(track.eta.remainingMiles > 100, `remaining ${track.eta.remainingMiles} miles`);
  t.equal((await get(`/api/tours/track/${tourId}`, otherShipper.token)).statusCode, 404);

  t.equal(
    (
      await send('PUT', `/api/loads/${loadId}/status`, shipper.token, {
        status: 7,
        message: 'Changed plans',
      })
    ).statusCode,
    409,
    'a load in transit cannot be cancelled',
  );
  const deleteDriver = await app.inject({
    method: 'DELETE',
    url: '/api/users/deleteDriver',
    headers: bearer(carrier.token),
    payload: { id: driver.userId },
  });
  t.equal(deleteDriver.statusCode, 409, 'a driver on an open tour cannot be deleted');
});

t.test('chat each way', async (t) => {
  const events = await watchEvents(platform.store);
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/chat`, driver.token, {
        message: 'Loaded, on my way',
      })
    ).statusCode,
    201,
  );
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/chat`, shipper.token, {
        message: 'Thanks, dock 4 at arrival',
      })
    ).statusCode,
    201,
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/chat`, shipper.token, { message: '   ' })).statusCode,
    400,
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/chat`, carrierB.token, { message: 'hi' })).statusCode,
    404,
  );
  await events.expect(t, [
    { type: 'MessagePosted', stream: `tourchat-${tourId}`, data: { text: 'Loaded, on my way' } },
    {
      type: 'MessagePosted',
      stream: `tourchat-${tourId}`,
      data: { text: 'Thanks, dock 4 at arrival' },
    },
  ]);
  const messages = (await get(`/api/tours/${tourId}/chat`, carrier.token)).json();
  t.match(messages, [
    { user: { name: 'Dan Driver' }, text: 'Loaded, on my way' },
    { text: 'Thanks, dock 4 at arrival' },
  ]);
});

t.test('delivery, confirmation and ratings', async (t) => {
  const events = await watchEvents(platform.store);
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/rate`, shipper.token, {
        ratings: [{ criteria: 1, rating: 5 }],
      })
    ).statusCode,
    409,
    'not delivered yet',
  );
  t.equal(
    (
      await send('PUT', `/api/tours/${tourId}/status`, driver.token, {
        status: 10,
        message: 'Unloaded',
      })
    ).statusCode,
    200,
  );
  t.match((await table('/api/loads/shipper', shipper.token)).json().data[0], {
    status: 10,
    actions: [1, 4, 6, 7, 12, 16],
  });
  t.equal(
    (await send('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 4 })).statusCode,
    403,
    'only the shipper confirms delivery',
  );
  t.equal(
    (
      await send('PUT', `/api/tours/${tourId}/status`, shipper.token, {
        status: 4,
        message: 'Received in good order',
      })
    ).statusCode,
    200,
  );
  await events.expect(
    t,
    [
      { type: 'TourStatusChanged', stream: `tour-${tourId}`, data: { to: 10, party: 'driver' } },
      'TourEventAdded',
      { type: 'TourStatusChanged', stream: `tour-${tourId}`, data: { to: 4, party: 'shipper' } },
      'TourEventAdded',
      { type: 'LoadCompleted', stream: `load-${loadId}` },
    ],
    { message: 'delivered and confirmed; the refusals appended nothing' },
  );
  const row = (await table('/api/loads/shipper', shipper.token)).json().data[0];
  t.match(row, { status: 4, statusName: 'Delivered', loadStatus: 9, loadStatusName: 'Completed' });
  t.ok(row.actions.includes(8), 'rate offered');

  const criteria = (await get(`/api/tours/rating/${tourId}`, shipper.token)).json();
  t.same(
    criteria.criteria.map((entry: { id: number }) => entry.id),
    [1, 2, 3, 4],
    'the shipper rates the carrier criteria',
  );
  t.equal(criteria.mine, null);
  const half = await send('POST', `/api/tours/${tourId}/rate`, shipper.token, {
    ratings: [
      { criteria: 1, rating: 4.2 },
      { criteria: 2, rating: 5 },
      { criteria: 3, rating: 5 },
      { criteria: 4, rating: 5 },
    ],
  });
  t.equal(half.statusCode, 400, 'steps of 0.5');
  const rated = await send('POST', `/api/tours/${tourId}/rate/`, shipper.token, {
    ratings: [
      { criteria: 1, rating: 4.5 },
      { criteria: 2, rating: 5 },
      { criteria: 3, rating: 4 },
      { criteria: 4, rating: 5 },
    ],
  });
  t.equal(rated.statusCode, 201, rated.body);
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/rate`, shipper.token, {
        ratings: [
          { criteria: 1, rating: 4.5 },
          { criteria: 2, rating: 5 },
          { criteria: 3, rating: 4 },
          { criteria: 4, rating: 5 },
        ],
      })
    ).statusCode,
    409,
    'once per side',
  );
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/rate`, carrier.token, {
        ratings: [
          { criteria: 5, rating: 3.5 },
          { criteria: 6, rating: 4 },
          { criteria: 7, rating: 4 },
          { criteria: 8, rating: 5 },
        ],
      })
    ).statusCode,
    201,
  );
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/rate`, carrierB.token, {
        ratings: [{ criteria: 5, rating: 3.5 }],
      })
    ).statusCode,
    404,
  );
  await events.expect(
    t,
    [
      {
        type: 'TourRated',
        stream: `tour-${tourId}`,
        data: { ratings: [{ criteria: 1, rating: 4.5 }] },
      },
      {
        type: 'TourRated',
        stream: `tour-${tourId}`,
        data: { ratings: [{ criteria: 5, rating: 3.5 }] },
      },
    ],
    { message: 'each side rated once; the refusals appended nothing' },
  );
  t.match((await get(`/api/tours/rating/${tourId}`, carrier.token)).json(), {
    mine: [{ criteria: 5, rating: 3.5 }],
    theirs: [{ criteria: 1, rating: 4.5 }],
  });

  const profile = (await get('/api/profile', carrier.token)).json();
  t.same(
    profile.ratings,
    { Punctuality: 4.5, Communication: 5, 'Cargo condition': 4, Professionalism: 5 },
    "the carrier's ratings in its profile",
  );
  t.match((await get('/api/profile', shipper.token)).json().ratings, { 'Loading speed': 3.5 });
});

t.test('history: every event in order, replay at a moment, CSV', async (t) => {
  t.equal((await get(`/api/loads/${loadId}/history`, otherShipper.token)).statusCode, 404);
  t.equal(
    (await get(`/api/loads/${loadId}/history`, carrierB.token)).statusCode,
    404,
    'a losing bidder has no access to the audit trail',
  );
  const history = (await get(`/api/loads/${loadId}/history`, shipper.token)).json();
  const types: string[] = history.events.map((event: { type: string }) => event.type);
  for (const type of [
    'LoadPosted',
    'ProposalSubmitted',
    'ProposalRevised',
    'ProposalCountered',
    'CounterAccepted',
    'LoadProposalAccepted',
    'ProposalAccepted',
    'ProposalDeclined',
    'TourOpened',
    'ContractUploaded',
    'LoadContractSigned',
    'CarrierConfirmed',
    'TourAssigned',
    'TourStatusChanged',
    'TourEventAdded',
    'MessagePosted',
    'TourRated',
    'LoadCompleted',
  ]) {
    t.ok(types.includes(type), `${type} is in the trail`);
  }
  t.ok(
    types.indexOf('LoadPosted') < types.indexOf('ProposalSubmitted') &&
      types.indexOf('LoadProposalAccepted') < types.indexOf('TourOpened'),
    'in log order',
  );
  t.match(history.events[0], {
    type: 'LoadPosted',
    user: { id: shipper.userId },
    organization: { id: shipper.organizationId, name: 'Acme Shipping' },
  });
  t.ok(
    history.events.every(
      (event: { at: string }, index: number, all: { at: string }[]) =>
        index === 0 || all[index - 1]!.at <= event.at,
    ),
    'times never go back',
  );

  const then = (
    await get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(beforeAcceptance)}`,
      shipper.token,
    )
  ).json();
  t.equal(then.load.status, 4, 'before the acceptance the load was Created');
  t.equal(then.tour, null, 'and had no tour');
  t.equal(then.proposals.length, 2);
  t.ok(
    then.proposals.every((offer: { status: number }) => offer.status === 10),
    'both offers open',
  );
  t.ok(then.events.every((event: { at: string }) => event.at <= beforeAcceptance));
  const atPosting = (
    await get(`/api/loads/${loadId}/history?at=${encodeURIComponent(postedAt)}`, shipper.token)
  ).json();
  t.equal(atPosting.load, null, 'before posting there was no load');

  const csv = await get(`/api/loads/${loadId}/history?format=csv`, shipper.token);
  t.equal(csv.statusCode, 200);
  t.match(csv.headers['content-type'], /text\/csv/);
  t.match(csv.headers['content-disposition'], /attachment; filename="history-L-\d{6}\.csv"/);
  const lines = csv.body.trim().split('\r\n');
  t.equal(
    lines[0],
    'position,at,type,stream,user_id,user_name,organization_id,organization_name,data',
  );
  t.equal(lines.length, history.events.length + 1, 'one line per event');
  t.equal((await get(`/api/loads/${loadId}/history?at=yesterday`, shipper.token)).statusCode, 400);
});

t.test('editing, extending and cancelling', async (t) => {
  const posted = await send('POST', '/api/loads', shipper.token, loadBody());
  const { id } = posted.json();
  const events = await watchEvents(platform.store);
  const edited = await send('PUT', '/api/loads', shipper.token, {
    ...loadBody({ weight: 30000, commodity: 'Steel coils' }),
    loadId: id,
  });
  t.equal(edited.statusCode, 200, edited.body);
  await events.expect(t, [
    {
      type: 'LoadUpdated',
      stream: `load-${id}`,
      data: { loadId: id, details: { weight: 30000, commodity: 'Steel coils' } },
    },
  ]);
  t.match((await get(`/api/loads/${id}`, shipper.token)).json(), {
    weight: 30000,
    commodity: 'Steel coils',
  });
  const late = await send('PUT', '/api/loads', shipper.token, {
    loadId: id,
    newExpiration: inHours(60),
  });
  t.equal(late.statusCode, 400, 'expiration after pickup start');
  t.match(late.json().message, /Expiration can't be after pickup start date/);
  t.equal(
    (await send('PUT', '/api/loads', shipper.token, { loadId: id, newExpiration: inHours(30) }))
      .statusCode,
    200,
  );
  t.equal(
    (await send('PUT', `/api/loads/${id}/status`, shipper.token, { status: 7 })).statusCode,
    400,
    'a message is required',
  );
  await events.expect(t, [{ type: 'LoadExpirationExtended', stream: `load-${id}` }], {
    message: 'the refusals appended nothing; the extension',
  });
  t.equal(
    (await send('POST', `/api/proposal/${id}`, carrier.token, { price: 900 })).statusCode,
    201,
  );
  t.equal(
    (await send('PUT', `/api/loads/${id}/status`, otherShipper.token, { status: 7, message: 'x' }))
      .statusCode,
    404,
  );
  const canceled = await send('PUT', `/api/loads/${id}/status`, shipper.token, {
    status: 7,
    message: 'Order withdrawn by the customer',
  });
  t.equal(canceled.statusCode, 200, canceled.body);
  await events.expect(
    t,
    [
      'ProposalSubmitted',
      'ProposalListed',
      {
        type: 'LoadCanceled',
        stream: `load-${id}`,
        data: { loadId: id, message: 'Order withdrawn by the customer' },
      },
      'ProposalDeclined',
    ],
    {
      message:
        "the carrier's offer; the refused cancel appended nothing; the cancellation declines the offer",
    },
  );
  const row = (await table('/api/loads/shipper', shipper.token, { search: id.slice(0, 0) }))
    .json()
    .data.find((entry: { id: string }) => entry.id === id);
  t.match(row, { statusName: 'Canceled', loadStatus: 7 });
  t.equal(
    (
      await table('/api/proposals/carrier', carrier.token, {
        filters: [{ name: 'status', value: [12] }],
      })
    )
      .json()
      .data.some((p: { loadId: string }) => p.loadId === id),
    true,
    "the carrier's open offer was declined",
  );
  t.equal(
    (await send('PUT', '/api/loads', shipper.token, { ...loadBody(), loadId: id })).statusCode,
    409,
    'a cancelled load cannot be edited',
  );
});

t.test('expiry pauses an open load; extending reopens it', async (t) => {
  const posted = await send('POST', '/api/loads', shipper.token, loadBody());
  const { id } = posted.json();
  // The sweep finds expired loads in the read model: the post's answer names the position it must reach.
  t.ok(
    await platform.runner.waitFor(
      ['marketplace'],
      parseLogPosition(posted.headers['x-log-position']),
      30_000,
    ),
    'the read model has the load',
  );
  const paused = await platform.loadExpiry!.sweep(inHours(25));
  t.ok(paused >= 1, `paused ${paused}`);
  t.ok(
    await platform.runner.waitFor(['marketplace'], await platform.store.committedHead(), 30_000),
    'the read model caught up',
  );
  const load = (await get(`/api/loads/${id}`, shipper.token)).json();
  t.match(load, { status: 8, statusName: 'Paused' });
  t.equal(
    (await send('POST', `/api/proposal/${id}`, carrier.token, { price: 900 })).statusCode,
    404,
    'no longer on the marketplace',
  );
  t.equal(
    (await send('PUT', '/api/loads', shipper.token, { loadId: id, newExpiration: inHours(40) }))
      .statusCode,
    200,
  );
  t.match((await get(`/api/loads/${id}`, shipper.token)).json(), { status: 4 });
  t.equal(
    await platform.loadExpiry!.sweep(inHours(25)),
    0,
    'running the sweep again changes nothing new before the new expiration',
  );
});

t.test('Superadmin sees every proposal; others may not list them all', async (t) => {
  t.ok((await table('/api/proposals', admin.token)).json().total >= 3);
  t.equal((await table('/api/proposals', shipper.token)).statusCode, 403);
  t.ok((await table('/api/tours', admin.token)).json().total >= 1);
  t.equal((await table('/api/tours', otherShipper.token)).json().total, 0);
});

t.test('an acceptance cut short by a crash is completed by the repair pass', async (t) => {
  const { id } = (await send('POST', '/api/loads', shipper.token, loadBody())).json();
  const winner = (await send('POST', `/api/proposal/${id}`, carrier.token, { price: 1200 })).json()
    .id;
  const loser = (await send('POST', `/api/proposal/${id}`, carrierB.token, { price: 1300 })).json()
    .id;
  // The handler recorded the acceptance on the load stream, then the process died.
  const { revision } = await platform.store.readStream(`load-${id}`);
  const tourId = crypto.randomUUID();
  const now = new Date().toISOString();
  const appended = await platform.store.append(
    `load-${id}`,
    [
      {
        type: 'LoadProposalAccepted',
        data: {
          loadId: id,
          proposalId: winner,
          carrierOrganizationId: carrier.organizationId,
          price: 1200,
          tourId,
          acceptedAt: now,
        },
      },
    ],
    {
      expectedRevision: revision,
      metadata: {
        userId: shipper.userId,
        organizationId: shipper.organizationId,
        correlationId: id,
        causationId: null,
        at: now,
      },
    },
  );
  t.ok(
    await platform.runner.waitFor(['marketplace'], appended.position, 30_000),
    'the read model has the acceptance',
  );
  t.equal((await get(`/api/tours/${tourId}`, shipper.token)).statusCode, 404, 'no tour yet');
  const repaired = await platform.loadExpiry!.repair(new Date(Date.now() + 60_000).toISOString());
  t.ok(repaired >= 1, `repaired ${repaired}`);
  t.ok(
    await platform.runner.waitFor(['marketplace'], await platform.store.committedHead(), 30_000),
    'the read models caught up',
  );
  t.match((await get(`/api/tours/${tourId}`, shipper.token)).json(), {
    id: tourId,
    status: 7,
    price: 1200,
  });
  t.match((await get(`/api/proposal/${id}/proposal/${winner}`, carrier.token)).json(), {
    status: 5,
  });
  t.match((await get(`/api/proposal/${id}/proposal/${loser}`, carrierB.token)).json(), {
    status: 12,
  });
  t.equal(
    await platform.loadExpiry!.repair(new Date(Date.now() + 60_000).toISOString()),
    0,
    'a second pass finds nothing to do',
  );
});
