// @postgres: the whole flow through every read model's SQL
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { member, organization, PDF } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * One shipment through HTTP from posting to rating: a shipper posts a load, a carrier offers, the
 * shipper accepts, the carrier uploads the signed contract, assigns its driver, the driver runs the
 * tour to delivery, the shipper confirms it and rates. Each step: its answer, the events it
 * appended, and the status its users see. The rules and refusals of each step live in the focused
 * specs: loads.*.spec.ts, offers.*.spec.ts, tours.*.spec.ts, ../commands/acceptanceRepair.spec.ts.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Dan Driver',
});

/** The load's row in the shipper's table. */
const shipperRow = async () => (await as(shipper).get('/api/loads/shipper')).body.data[0];

t.test('post, offer, accept, contract, drive, deliver, confirm and rate', async (t) => {
  const events = await watchEvents(platform.store);

  const posted = await as(shipper).post('/api/loads', loadBody());
  t.equal(posted.status, 201, posted.text);
  const { id: loadId, guid } = posted.body;
  const load = `load-${loadId}`;
  await events.expect(t, [
    {
      type: 'LoadPosted',
      stream: load,
      data: { loadId, guid, shipperOrganizationId: shipper.organizationId },
      metadata: { userId: shipper.userId },
    },
  ]);
  t.match(await shipperRow(), { id: loadId, guid, statusName: 'Created', loadStatus: 4 });
  t.match((await as(carrier).get('/api/loads/carrier')).body.data, [{ id: loadId }], 'on offer');

  const offered = await as(carrier).post(`/api/proposal/${loadId}`, {
    price: 1500,
    message: 'Ready tomorrow',
  });
  t.equal(offered.status, 201, offered.text);
  const offerId = offered.body.id;
  await events.expect(t, [
    { type: 'ProposalSubmitted', stream: `proposal-${offerId}`, data: { loadId, price: 1500 } },
    { type: 'ProposalListed', stream: `loadoffers-${loadId}` },
  ]);
  t.match(await shipperRow(), { statusName: 'Bid Submitted', proposals: 1, bestPrice: 1500 });

  const accepted = await as(shipper).put(`/api/proposal/${offerId}`, { status: 5 });
  t.equal(accepted.status, 200, accepted.text);
  await events.expect(t, [
    { type: 'LoadProposalAccepted', stream: load, data: { proposalId: offerId, price: 1500 } },
    { type: 'ProposalAccepted', stream: `proposal-${offerId}` },
    { type: 'TourOpened', data: { loadId, price: 1500 } },
  ]);
  const { tourId } = await shipperRow();
  const tour = `tour-${tourId}`;
  t.match(await shipperRow(), { statusName: 'Bid Accepted', loadStatusName: 'Accepted' });
  t.match((await as(carrier).get(`/api/proposal/${loadId}/proposal/${offerId}`)).body, {
    statusName: 'Accepted',
  });

  const signed = await as(carrier).upload(`/api/proposal/load/${loadId}`, {
    fields: { status: '14' },
    files: { contract: { content: PDF, filename: 'signed.pdf', type: 'application/pdf' } },
  });
  t.equal(signed.status, 200, signed.text);
  await events.expect(t, [
    { type: 'ContractUploaded', stream: `proposal-${offerId}` },
    { type: 'LoadContractSigned', stream: load },
    { type: 'CarrierConfirmed', stream: tour },
  ]);
  t.match(await shipperRow(), { statusName: 'Carrier Confirmed', loadStatusName: 'Signed' });

  const assigned = await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`);
  t.equal(assigned.status, 200, assigned.text);
  await events.expect(t, [
    { type: 'TourAssigned', stream: tour, data: { assigneeId: driver.userId } },
    { type: 'TourStatusChanged', stream: tour, data: { to: 2 } },
    'TourEventAdded',
  ]);
  t.match(
    (await as(driver).get('/api/tours/assigned')).body.data,
    [{ id: tourId, statusName: 'Ready for pickup' }],
    "on the driver's list",
  );

  for (const [status, statusName] of [
    [3, 'Dispatched'],
    [9, 'In Transit'],
    [10, 'Pending Delivery Confirmation'],
  ] as const) {
    const moved = await as(driver).put(`/api/tours/${tourId}/status`, { status, message: '' });
    t.equal(moved.status, 200, `${statusName}: ${moved.text}`);
    await events.expect(t, [
      { type: 'TourStatusChanged', stream: tour, data: { to: status, party: 'driver' } },
      'TourEventAdded',
    ]);
    t.match(await shipperRow(), { status, statusName }, `the shipper sees ${statusName}`);
    t.match((await as(driver).get(`/api/tours/${tourId}`)).body, { status, statusName });
  }

  const confirmed = await as(shipper).put(`/api/tours/${tourId}/status`, {
    status: 4,
    message: 'Received in good order',
  });
  t.equal(confirmed.status, 200, confirmed.text);
  await events.expect(t, [
    { type: 'TourStatusChanged', stream: tour, data: { to: 4, party: 'shipper' } },
    'TourEventAdded',
    { type: 'LoadCompleted', stream: load },
  ]);
  t.match(await shipperRow(), { statusName: 'Delivered', loadStatusName: 'Completed' });

  const ratings = [1, 2, 3, 4].map((criteria) => ({ criteria, rating: 5 }));
  const rated = await as(shipper).post(`/api/tours/${tourId}/rate`, { ratings });
  t.equal(rated.status, 201, rated.text);
  await events.expect(t, [{ type: 'TourRated', stream: tour, data: { ratings } }]);
  t.match((await as(carrier).get(`/api/tours/rating/${tourId}`)).body, { theirs: ratings });
  t.match((await as(carrier).get('/api/profile')).body.ratings, { Punctuality: 5 });
});
