// @postgres: the repair pass finds the unfinished acceptances in the read model's SQL
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Accepting an offer records the acceptance on the load's stream first, then carries it to the
 * offers and opens the tour (shipments.ts). When the process dies in between, the scheduler's
 * repair pass (reactors/loadExpiry.ts) completes it: the winner accepted, the others declined, the
 * tour opened; and a second pass finds nothing left to do.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test('an acceptance cut short by a crash is completed by the repair pass', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const carrierB = await organization(app, platform, 'Carrier');
  const { loadId, offerId, rivalOfferIds } = await steps.offered(
    { shipper, carrier, rivals: [carrierB] },
    { price: 1200 },
  );
  const loser = rivalOfferIds[0]!;

  // The handler recorded the acceptance on the load stream, then the process died.
  const { revision } = await platform.store.readStream(loadStream(loadId));
  const tourId = randomUUID();
  const now = new Date().toISOString();
  await platform.store.append(
    loadStream(loadId),
    [
      {
        type: 'LoadProposalAccepted',
        data: {
          loadId,
          proposalId: offerId,
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
        correlationId: loadId,
        causationId: null,
        at: now,
      },
    },
  );
  await steps.settled();
  t.equal((await as(shipper).get(`/api/tours/${tourId}`)).status, 404, 'no tour yet');
  const events = await watchEvents(platform.store);

  const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
  t.equal(await platform.loadExpiry!.repair(inAMinute()), 1, 'the pass repaired the load');
  await events.expect(t, [
    { type: 'ProposalAccepted', stream: offerStream(offerId), data: { loadId, tourId } },
    { type: 'ProposalDeclined', stream: offerStream(loser), data: { reason: 'otherAccepted' } },
    { type: 'TourOpened', stream: tourStream(tourId), data: { loadId, price: 1200 } },
  ]);
  await steps.settled();
  t.match((await as(shipper).get(`/api/tours/${tourId}`)).body, {
    id: tourId,
    status: 7,
    price: 1200,
  });
  t.match((await as(carrier).get(`/api/proposal/${loadId}/proposal/${offerId}`)).body, {
    status: 5,
  });
  t.match((await as(carrierB).get(`/api/proposal/${loadId}/proposal/${loser}`)).body, {
    status: 12,
  });

  t.equal(await platform.loadExpiry!.repair(inAMinute()), 0, 'a second pass finds nothing to do');
  await events.expect(t, [], { message: 'and appends nothing' });
});
