import t from 'tap';
import { claimsStream, type ClaimEvent } from '../../domain/claims/claim.types.ts';
import { placeKey } from '../../domain/claims/detentionFigures.ts';
import { loadStream, type LoadProposalAccepted } from '../../domain/loads/load.types.ts';
import { STANDARD_TERMS } from '../../domain/loads/terms.ts';
import { tourStream, type TourEventAdded } from '../../domain/tours/tour.types.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { carrier, chicago, indianapolis, on, shipper, shipperUser } from '../testing/trade.ts';
import { tourOpened } from '../testing/tours.ts';
import { detentionFiguresProjection } from './detentionFigures.projection.ts';

const spec = readModelSpec(detentionFiguresProjection, openTestDatabase);
t.teardown(spec.close);

const MINUTE = 60_000;
const pickupStop = '10000000-0000-4000-8000-000000000001';
const deliveryStop = '10000000-0000-4000-8000-000000000002';
const chicagoKey = placeKey({ address: 'Chicago, IL', ...chicago });
const indianapolisKey = placeKey({ address: 'Indianapolis, IN', ...indianapolis });
const tourA = 'aaaa0000-0000-4000-8000-00000000000a';
const tourB = 'aaaa0000-0000-4000-8000-00000000000b';
const tourC = 'aaaa0000-0000-4000-8000-00000000000c';
const loadOf = (tourId: string) => `bbbb${tourId.slice(4)}`;
const day = Date.parse('2026-12-05T08:00:00.000Z');
const at = (minutes: number) => new Date(day + minutes * MINUTE).toISOString();

const accepted = (tourId: string, terms?: typeof STANDARD_TERMS) =>
  on<LoadProposalAccepted>(loadStream(loadOf(tourId)), {
    type: 'LoadProposalAccepted',
    data: {
      loadId: loadOf(tourId),
      proposalId: `cccc${tourId.slice(4)}`,
      carrierOrganizationId: carrier,
      price: 1000,
      tourId,
      acceptedAt: at(-600),
      ...(terms ? { terms } : {}),
    },
  });
const opened = (tourId: string) =>
  tourOpened(tourId, {
    at: at(-600),
    loadId: loadOf(tourId),
    proposalId: `cccc${tourId.slice(4)}`,
    price: 1000,
  });
let entries = 0;
const entry = (tourId: string, type: 'arrived' | 'departed', stopId: string, minutes: number) =>
  on<TourEventAdded>(tourStream(tourId), {
    type: 'TourEventAdded',
    data: {
      tourId,
      eventId: `eeee0000-0000-4000-8000-${String(++entries).padStart(12, '0')}`,
      type,
      message: type,
      stopId,
      addedBy: null,
      at: at(minutes),
    },
  });
const stay = (tourId: string, stopId: string, from: number, minutes: number) => [
  entry(tourId, 'arrived', stopId, from),
  entry(tourId, 'departed', stopId, from + minutes),
];
const claimed = (
  tourId: string,
  claimId: string,
  kind: 'detention' | 'tonu',
  stopIndex: number | null,
) =>
  on<ClaimEvent>(claimsStream(tourId), {
    type: 'AccessorialClaimed',
    data: {
      tourId,
      loadId: loadOf(tourId),
      claimId,
      kind,
      stopIndex,
      minutes: 30,
      amount: 25,
      evidence: { arrivedAt: null, leftAt: null, appointmentAt: null, positionsInside: [] },
      terms: STANDARD_TERMS,
      shipperOrganizationId: shipper,
      carrierOrganizationId: carrier,
      claimedBy: null,
      claimedAt: at(600),
      dueAt: at(600 + 48 * 60),
    },
  });
const approved = (tourId: string, claimId: string, minutes: number, bySilence = false) =>
  on<ClaimEvent>(claimsStream(tourId), {
    type: 'AccessorialApproved',
    data: {
      tourId,
      claimId,
      approvedBy: bySilence ? null : shipperUser,
      bySilence,
      amount: 25,
      approvedAt: at(minutes),
    },
  });
const disputed = (tourId: string, claimId: string) =>
  on<ClaimEvent>(claimsStream(tourId), {
    type: 'AccessorialDisputed',
    data: {
      tourId,
      claimId,
      reason: 'Our dock log says otherwise',
      disputedBy: shipperUser,
      disputedAt: at(700),
    },
  });

const claimA = 'dddd0000-0000-4000-8000-00000000000a';
const claimB = 'dddd0000-0000-4000-8000-00000000000b';
const claimC = 'dddd0000-0000-4000-8000-00000000000c';
const claimLate = 'dddd0000-0000-4000-8000-00000000000d';
const claimOpen = 'dddd0000-0000-4000-8000-00000000000e';

t.test(
  'stops measured from arrival to departure, held beyond the booking’s free time, claims answered on time',
  async () => {
    const given = spec.given(
      // Tour A agreed one free hour at the pickup: 90 minutes there is detention; 100 of 120 at the delivery is not.
      accepted(tourA, { ...STANDARD_TERMS, freeTimeHours: { pickup: 1, delivery: 2 } }),
      opened(tourA),
      ...stay(tourA, pickupStop, 0, 90),
      ...stay(tourA, deliveryStop, 400, 100),
      // Tour B agreed no terms: the standard two hours; 150 minutes is detention.
      accepted(tourB),
      opened(tourB),
      ...stay(tourB, pickupStop, 0, 150),
      // A second arrival recorded later changes nothing: the first one counts.
      entry(tourB, 'arrived', pickupStop, 100),
      // Tour C: arrived, never departed: not measured.
      accepted(tourC),
      opened(tourC),
      entry(tourC, 'arrived', pickupStop, 0),
      claimed(tourA, claimA, 'detention', 0),
      approved(tourA, claimA, 700),
      claimed(tourB, claimB, 'detention', 0),
      approved(tourB, claimB, 600 + 48 * 60, true),
      claimed(tourC, claimC, 'tonu', null),
      disputed(tourC, claimC),
      approved(tourC, claimC, 800),
      claimed(tourA, claimLate, 'detention', 1),
      approved(tourA, claimLate, 600 + 49 * 60),
      claimed(tourB, claimOpen, 'detention', 1),
    );
    await given.expectRows('detention_stops_view', [
      { tour_id: tourA, stop_index: 0, place_key: chicagoKey, kind: 'pickup', minutes_on_site: 90 },
      {
        tour_id: tourA,
        stop_index: 1,
        place_key: indianapolisKey,
        kind: 'delivery',
        minutes_on_site: 100,
      },
      {
        tour_id: tourB,
        stop_index: 0,
        place_key: chicagoKey,
        kind: 'pickup',
        minutes_on_site: 150,
      },
      {
        tour_id: tourB,
        stop_index: 1,
        place_key: indianapolisKey,
        kind: 'delivery',
        minutes_on_site: null,
      },
      {
        tour_id: tourC,
        stop_index: 0,
        place_key: chicagoKey,
        kind: 'pickup',
        minutes_on_site: null,
      },
      {
        tour_id: tourC,
        stop_index: 1,
        place_key: indianapolisKey,
        kind: 'delivery',
        minutes_on_site: null,
      },
    ]);
    await given.expectRows('detention_claims_view', [
      { claim_id: claimA, outcome: 'on-time' },
      { claim_id: claimB, outcome: 'silence' },
      { claim_id: claimC, outcome: 'disputed' },
      { claim_id: claimLate, outcome: 'late' },
      { claim_id: claimOpen, outcome: 'open' },
    ]);
    await given.expectRows('detention_figures_view', [
      {
        scope: 'shipper',
        key: shipper,
        stops: 3,
        median_minutes: 100,
        detention_stops: 2,
        claims_decided: 4,
        claims_on_time: 1,
      },
      {
        scope: 'place',
        key: chicagoKey,
        stops: 2,
        median_minutes: 120,
        detention_stops: 2,
        claims_decided: 2,
        claims_on_time: 1,
      },
      {
        scope: 'place',
        key: indianapolisKey,
        stops: 1,
        median_minutes: 100,
        detention_stops: 0,
        claims_decided: 1,
        claims_on_time: 0,
      },
    ]);
  },
);

t.test('the same place typed again with other spaces and capitals is the same place', async (t) => {
  t.equal(
    placeKey({ address: '  CHICAGO,   il ', latitude: 41.87812, longitude: -87.62981 }),
    chicagoKey,
  );
  t.not(placeKey({ address: 'Chicago, IL', latitude: 41.9, longitude: -87.6298 }), chicagoKey);
});
