// @postgres: the history's queries, its replay at a moment and its CSV
import t from 'tap';
import { TourStatus } from '../../domain/catalog.ts';
import { Role } from '../../domain/permissions.ts';
import { member, organization } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * A load's history (GET /api/loads/{id}/history) read by its shipper after a whole shipment: every
 * event of the load, its offers, its tour and its chat in log order with who did it; the state
 * replayed at a moment (`?at=`); the same trail as CSV. Who else reads it: history.offers.spec.ts.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test('history: every event in order, replay at a moment, CSV', async (t) => {
  const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
  const otherShipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const carrierB = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver);

  // A moment strictly before the posting: the server may stamp it within the same millisecond.
  const postedAt = new Date(Date.now() - 1).toISOString();
  const { loadId } = await steps.postLoad(shipper);
  const offerId = await steps.submitOffer(carrier, loadId, { price: 1500 });
  await steps.submitOffer(carrier, loadId, { price: 1450, message: 'Better price' });
  await steps.submitOffer(carrierB, loadId, { price: 1600 });
  await steps.answerOffer(shipper, Role.Shipper, offerId, { status: 11, price: 1400 });
  await steps.answerOffer(carrier, Role.Carrier, offerId, { status: 10 });
  const beforeAcceptance = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const tourId = await steps.acceptOffer(shipper, offerId);
  await steps.signContract(carrier, loadId);
  await steps.assignDriver(carrier, tourId, driver);
  await steps.postMessage(driver, Role.Driver, tourId, 'Loaded, on my way');
  for (const to of [
    TourStatus.Dispatched,
    TourStatus.InTransit,
    TourStatus.PendingDeliveryConfirmation,
  ])
    await steps.moveTour(driver, Role.Driver, tourId, to);
  await steps.moveTour(shipper, Role.Shipper, tourId, TourStatus.Delivered);
  await steps.rateTour(
    shipper,
    Role.Shipper,
    tourId,
    [1, 2, 3, 4].map((criteria) => ({ criteria, rating: 5 })),
  );

  t.equal((await as(otherShipper).get(`/api/loads/${loadId}/history`)).status, 404);
  t.equal(
    (await as(carrierB).get(`/api/loads/${loadId}/history`)).status,
    404,
    'a losing bidder has no access to the audit trail',
  );
  const history = (await as(shipper).get(`/api/loads/${loadId}/history`)).body;
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

  const then = (await as(shipper).get(`/api/loads/${loadId}/history`, { at: beforeAcceptance }))
    .body;
  t.equal(then.load.status, 4, 'before the acceptance the load was Created');
  t.equal(then.tour, null, 'and had no tour');
  t.equal(then.proposals.length, 2);
  t.ok(
    then.proposals.every((offer: { status: number }) => offer.status === 10),
    'both offers open',
  );
  t.ok(then.events.every((event: { at: string }) => event.at <= beforeAcceptance));
  const atPosting = (await as(shipper).get(`/api/loads/${loadId}/history`, { at: postedAt })).body;
  t.equal(atPosting.load, null, 'before posting there was no load');

  const csv = await as(shipper).get(`/api/loads/${loadId}/history`, { format: 'csv' });
  t.equal(csv.status, 200);
  t.match(csv.headers['content-type'], /text\/csv/);
  t.match(csv.headers['content-disposition'], /attachment; filename="history-L-\d{6}\.csv"/);
  const lines = csv.text.trim().split('\r\n');
  t.equal(
    lines[0],
    'position,at,type,stream,user_id,user_name,organization_id,organization_name,data',
  );
  t.equal(lines.length, history.events.length + 1, 'one line per event');
  t.equal((await as(shipper).get(`/api/loads/${loadId}/history`, { at: 'yesterday' })).status, 400);
});
