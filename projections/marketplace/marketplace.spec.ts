import t from 'tap';
import { GenericStatus, TourStatus } from '../../domain/catalog.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { driverAssigned, messagePosted, timelineEntry, tourCanceled } from '../testing/tours.ts';
import { carrierConfirmed, tourMoved, tourOpened, tourRated } from '../testing/tours.ts';
import {
  carrier,
  contractSigned,
  detroit,
  loadAccepted,
  loadCanceled,
  loadCompleted,
  loadEdited,
  loadExpired,
  loadExtended,
  loadPosted,
  locationSaved,
  otherCarrier,
  shipper,
} from '../testing/trade.ts';
import {
  contractUploaded,
  counterAccepted,
  offerAccepted,
  offerCanceled,
  offerCountered,
  offerDeclined,
  offerRevised,
  offerSubmitted,
} from '../testing/offers.ts';
import { marketplaceProjection } from './marketplace.projection.ts';

const spec = readModelSpec(marketplaceProjection, openTestDatabase);
t.teardown(spec.close);

const load = '7d4f3a2e-1b0c-4d5e-8f6a-9b8c7d6e5f40';
const offer = 'aaaa1111-2222-5333-8444-555566667777';
const otherOffer = 'aaaa1111-2222-5333-8444-555566667778';
const tour = 'bbbb1111-2222-4333-8444-555566667777';
const contract = 'cccc1111-2222-4333-8444-555566667777';

// The timeline of a shipment: posted Monday, offers Tuesday, accepted Wednesday, on the road Saturday.
const posted = '2026-11-30T10:00:00.000Z';
const offered = '2026-12-01T10:00:00.000Z';
const countered = '2026-12-01T12:00:00.000Z';
const accepted = '2026-12-02T10:00:00.000Z';
const signed = '2026-12-02T11:00:00.000Z';
const onTheRoad = '2026-12-05T09:00:00.000Z';
const delivered = '2026-12-06T16:00:00.000Z';

/** A load with two offers, one accepted: the shipment's tour is open. */
const acceptedShipment = [
  loadPosted(load, { at: posted }),
  offerSubmitted(offer, { at: offered, loadId: load, price: 2400 }),
  offerSubmitted(otherOffer, { at: offered, loadId: load, price: 2300, by: otherCarrier }),
  loadAccepted(load, { at: accepted, proposalId: offer, tourId: tour, price: 2400 }),
  offerAccepted(offer, { at: accepted, loadId: load, tourId: tour, price: 2400 }),
  offerDeclined(otherOffer, { at: accepted }),
  tourOpened(tour, { at: accepted, loadId: load, proposalId: offer, price: 2400 }),
];

t.test('a load posted is on the board, Created, with its places and no offers', async () => {
  await spec.given(loadPosted(load, { at: posted, guid: 'L-000042' })).expectRows('loads_view', [
    {
      id: load,
      guid: 'L-000042',
      shipper_organization_id: shipper,
      status: GenericStatus.Created,
      pickup_city: 'Chicago',
      dropoff_city: 'Indianapolis',
      equipment: [15],
      weight: 40000,
      proposals_count: 0,
      open_proposals: 0,
      best_price: null,
      tour_id: null,
      created_at: posted,
      updated_at: posted,
    },
  ]);
});

t.test(
  'an edited load shows its new details; the same load posted twice keeps its first row',
  async () => {
    await spec
      .given(
        loadPosted(load, { at: posted }),
        loadPosted(load, { at: offered, guid: 'L-999999' }),
        loadEdited(load, { at: countered, to: detroit, weight: 30000 }),
      )
      .expectRows('loads_view', [
        {
          guid: 'L-000001',
          dropoff_city: 'Detroit',
          weight: 30000,
          created_at: posted,
          updated_at: countered,
        },
      ]);
  },
);

t.test(
  'an expired load is Paused; extended, it is Created again with its new expiration',
  async () => {
    const expired = loadExpired(load, { at: offered });
    const later = '2026-12-09T10:00:00.000Z';
    await spec
      .given(loadPosted(load, { at: posted }), expired)
      .expectRows('loads_view', [{ status: GenericStatus.Paused, updated_at: offered }]);
    await spec
      .given(
        loadPosted(load, { at: posted }),
        expired,
        loadExtended(load, { at: countered, expiration: later, reopened: true }),
      )
      .expectRows('loads_view', [
        { status: GenericStatus.Created, expiration: later, updated_at: countered },
      ]);
    // Extended before it expired: it was and stays Created.
    await spec
      .given(
        loadPosted(load, { at: posted }),
        loadExtended(load, { at: countered, expiration: later, reopened: false }),
      )
      .expectRows('loads_view', [{ status: GenericStatus.Created, expiration: later }]);
  },
);

t.test('a cancelled load shows Canceled with the shipper’s message', async () => {
  await spec
    .given(loadPosted(load, { at: posted }), loadCanceled(load, { at: offered, message: 'Sold' }))
    .expectRows('loads_view', [
      { status: GenericStatus.Canceled, cancel_message: 'Sold', updated_at: offered },
    ]);
});

t.test('offers count on their load: open ones, the best open price, the latest', async () => {
  const given = spec.given(
    loadPosted(load, { at: posted }),
    offerSubmitted(offer, { at: offered, loadId: load, price: 2400 }),
    offerSubmitted(otherOffer, { at: countered, loadId: load, price: 2300, by: otherCarrier }),
    offerDeclined(otherOffer, { at: accepted }),
  );
  await given.expectRows('loads_view', [
    { proposals_count: 2, open_proposals: 1, best_price: '2400.00', last_proposal_at: countered },
  ]);
  await given.expectRows('proposals_view', [
    {
      id: offer,
      load_id: load,
      carrier_organization_id: carrier,
      status: GenericStatus.SubmittedProposal,
      price: '2400.00',
      counter_price: null,
    },
    {
      id: otherOffer,
      load_id: load,
      carrier_organization_id: otherCarrier,
      status: GenericStatus.Declined,
      price: '2300.00',
      counter_price: null,
    },
  ]);
});

t.test(
  'a countered offer waits for the carrier; the counter accepted becomes its price',
  async () => {
    const start = [
      loadPosted(load, { at: posted }),
      offerSubmitted(offer, { at: offered, loadId: load, price: 2600 }),
      offerCountered(offer, { at: countered, price: 2450 }),
    ];
    await spec.given(...start).expectRows('proposals_view', [
      {
        status: GenericStatus.PendingAcceptance,
        price: '2600.00',
        counter_price: '2450.00',
        updated_at: countered,
      },
    ]);
    const agreed = spec.given(...start, counterAccepted(offer, { at: accepted, price: 2450 }));
    await agreed.expectRows('proposals_view', [
      { status: GenericStatus.SubmittedProposal, price: '2450.00', counter_price: null },
    ]);
    await agreed.expectRows('loads_view', [{ open_proposals: 1, best_price: '2450.00' }]);
  },
);

t.test('a revised offer is open again at its new price; a cancelled one is closed', async () => {
  await spec
    .given(
      loadPosted(load, { at: posted }),
      offerSubmitted(offer, { at: offered, loadId: load, price: 2600 }),
      offerCountered(offer, { at: countered, price: 2450 }),
      offerRevised(offer, { at: accepted, price: 2500 }),
    )
    .expectRows('proposals_view', [
      {
        status: GenericStatus.SubmittedProposal,
        price: '2500.00',
        counter_price: null,
        eld_truck_name: 'Truck 7',
        submitted_at: accepted,
      },
    ]);
  const canceled = spec.given(
    loadPosted(load, { at: posted }),
    offerSubmitted(offer, { at: offered, loadId: load, price: 2600 }),
    offerCanceled(offer, { at: countered }),
  );
  await canceled.expectRows('proposals_view', [{ status: GenericStatus.Canceled }]);
  await canceled.expectRows('loads_view', [
    { proposals_count: 1, open_proposals: 0, best_price: null },
  ]);
});

t.test('an offer submitted again after its decline is open again', async () => {
  await spec
    .given(
      loadPosted(load, { at: posted }),
      offerSubmitted(offer, { at: offered, loadId: load, price: 2600 }),
      offerDeclined(offer, { at: countered }),
      offerSubmitted(offer, { at: accepted, loadId: load, price: 2550 }),
    )
    .expectRows('proposals_view', [
      { status: GenericStatus.SubmittedProposal, price: '2550.00', submitted_at: accepted },
    ]);
});

t.test('an accepted offer opens the tour: the load shows it as Bid Accepted', async () => {
  const given = spec.given(...acceptedShipment);
  await given.expectRows('loads_view', [
    {
      status: GenericStatus.Accepted,
      accepted_proposal_id: offer,
      carrier_organization_id: carrier,
      price: '2400.00',
      tour_id: tour,
      tour_status: TourStatus.BidAccepted,
      open_proposals: 0,
      best_price: null,
    },
  ]);
  await given.expectRows('proposals_view', [
    { id: offer, status: GenericStatus.Accepted, tour_id: tour },
    { id: otherOffer, status: GenericStatus.Declined, tour_id: null },
  ]);
  await given.expectRows('tours_view', [
    {
      id: tour,
      load_id: load,
      proposal_id: offer,
      status: TourStatus.BidAccepted,
      price: '2400.00',
      shipper_rated: false,
      carrier_rated: false,
      opened_at: accepted,
    },
  ]);
});

t.test(
  'the contract, the carrier’s confirmation and the driver show on load and tour',
  async () => {
    const given = spec.given(
      ...acceptedShipment,
      contractUploaded(offer, { at: signed, loadId: load, contractFileId: contract }),
      contractSigned(load, { at: signed, proposalId: offer, contractFileId: contract }),
      carrierConfirmed(tour, { at: signed, contractFileId: contract }),
      driverAssigned(tour, { at: signed, name: 'Dana Driver' }),
    );
    await given.expectRows('proposals_view', [
      { id: offer, status: GenericStatus.Confirmed, contract_file_id: contract },
      { id: otherOffer, status: GenericStatus.Declined, contract_file_id: null },
    ]);
    await given.expectRows('loads_view', [
      {
        status: GenericStatus.Signed,
        contract_file_id: contract,
        tour_status: TourStatus.CarrierConfirmed,
        assignee_id: '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5d',
      },
    ]);
    await given.expectRows('tours_view', [
      {
        status: TourStatus.CarrierConfirmed,
        contract_file_id: contract,
        assignee_name: 'Dana Driver',
        updated_at: signed,
      },
    ]);
  },
);

t.test('a tour on the road and delivered; the load completed', async () => {
  const given = spec.given(
    ...acceptedShipment,
    tourMoved(tour, { at: onTheRoad, from: TourStatus.BidAccepted, to: TourStatus.InTransit }),
    tourMoved(tour, { at: delivered, from: TourStatus.InTransit, to: TourStatus.Delivered }),
    loadCompleted(load, { at: delivered, tourId: tour }),
  );
  await given.expectRows('tours_view', [{ status: TourStatus.Delivered, updated_at: delivered }]);
  await given.expectRows('loads_view', [
    { status: GenericStatus.Completed, tour_status: TourStatus.Delivered, updated_at: delivered },
  ]);
});

t.test('a cancelled tour shows Canceled on the tour and its load', async () => {
  const given = spec.given(
    ...acceptedShipment,
    tourCanceled(tour, { at: onTheRoad, from: TourStatus.BidAccepted }),
  );
  await given.expectRows('tours_view', [{ status: TourStatus.Canceled, updated_at: onTheRoad }]);
  await given.expectRows('loads_view', [{ tour_status: TourStatus.Canceled }]);
});

t.test('the timeline keeps each entry once', async () => {
  const note = timelineEntry(tour, {
    at: onTheRoad,
    eventId: 'dddd1111-2222-4333-8444-555566667777',
    message: 'Loaded, leaving now',
  });
  await spec
    .given(...acceptedShipment, note, note)
    .expectRows('tour_events_view', [
      { tour_id: tour, type: 'note', message: 'Loaded, leaving now', at: onTheRoad },
    ]);
});

t.test('ratings: one row per criterion, the first kept, the side marked as rated', async () => {
  const given = spec.given(
    ...acceptedShipment,
    tourRated(tour, { at: delivered, side: 'shipper', ratings: { 1: 5, 2: 4 } }),
    tourRated(tour, { at: delivered, side: 'shipper', ratings: { 1: 1 } }),
  );
  await given.expectRows('tour_ratings_view', [
    { side: 'shipper', rated_organization_id: carrier, criteria: 1, rating: '5.0' },
    { side: 'shipper', rated_organization_id: carrier, criteria: 2, rating: '4.0' },
  ]);
  await given.expectRows('tours_view', [{ shipper_rated: true, carrier_rated: false }]);
});

t.test('a location saved again takes the new details and keeps its organization', async () => {
  const id = 'eeee1111-2222-4333-8444-555566667777';
  await spec
    .given(
      locationSaved({ id, name: 'Dock A' }, { at: posted }),
      locationSaved({ id, name: 'Dock B' }, { at: offered, organizationId: otherCarrier }),
    )
    .expectRows('saved_locations_view', [
      { id, organization_id: shipper, name: 'Dock B', city: 'Chicago', saved_at: offered },
    ]);
});

t.test(
  'events of other read models change nothing; an offer on an unknown load counts nothing',
  async () => {
    const given = spec.given(
      messagePosted(tour, { at: onTheRoad, messageId: tour, text: 'Hello' }),
      offerSubmitted(offer, { at: offered, loadId: load, price: 2400 }),
      carrierConfirmed(tour, { at: signed, contractFileId: contract }),
    );
    await given.expectRows('loads_view', []);
    await given.expectRows('tours_view', []);
    await given.expectRows('proposals_view', [
      { id: offer, status: GenericStatus.SubmittedProposal },
    ]);
  },
);
