import t from 'tap';
import { claimsStream, type ClaimEvent } from '../../domain/claims/claim.types.ts';
import { facilityStream, type FacilityEvent } from '../../domain/facilities/facility.ts';
import { facilityFigures } from '../../domain/facilities/facilityFigures.ts';
import { STANDARD_TERMS } from '../../domain/loads/terms.ts';
import { tourStream, type TourEventAdded } from '../../domain/tours/tour.types.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec, type SpecRow } from '../testing.ts';
import {
  carrier,
  chicago,
  driver,
  loadPosted,
  locationSaved,
  on,
  shipper,
} from '../testing/trade.ts';
import { driverAssigned, tourOpened } from '../testing/tours.ts';
import { facilitiesProjection } from './facilities.projection.ts';

const spec = readModelSpec(facilitiesProjection, openTestDatabase);
t.teardown(spec.close);

const savedId = 'eeee0000-0000-4000-8000-000000000001';
const pickupStop = '10000000-0000-4000-8000-000000000001';
const deliveryStop = '10000000-0000-4000-8000-000000000002';
const tour = (n: number) => `aaaa0000-0000-4000-8000-00000000000${n}`;
const load = (n: number) => `bbbb0000-0000-4000-8000-00000000000${n}`;
let entries = 0;
const entry = (tourId: string, type: 'arrived' | 'departed', stopId: string, at: string) =>
  on<TourEventAdded>(tourStream(tourId), {
    type: 'TourEventAdded',
    data: {
      tourId,
      eventId: `ffff0000-0000-4000-8000-${String(++entries).padStart(12, '0')}`,
      type,
      message: type,
      stopId,
      addedBy: null,
      at,
    },
  });
const detention = (tourId: string, stopIndex: number) =>
  on<ClaimEvent>(claimsStream(tourId), {
    type: 'AccessorialClaimed',
    data: {
      tourId,
      loadId: load(Number(tourId.at(-1))),
      claimId: `dddd${tourId.slice(4)}`,
      kind: 'detention',
      stopIndex,
      minutes: 30,
      amount: 25,
      evidence: { arrivedAt: null, leftAt: null, appointmentAt: null, positionsInside: [] },
      terms: STANDARD_TERMS,
      shipperOrganizationId: shipper,
      carrierOrganizationId: carrier,
      claimedBy: null,
      claimedAt: '2026-12-22T00:00:00.000Z',
      dueAt: '2026-12-24T00:00:00.000Z',
    },
  });

/**
 * A shipment picked up at the Chicago warehouse: the load (its appointment), the tour, its driver,
 * the arrival and departure at the pickup. 2026-12-07 is a Monday; 14:00 UTC is 08:00 in Chicago.
 */
const visit = (n: number, appointment: string, arrived: string, departed: string | null) => [
  loadPosted(load(n), { at: '2026-12-01T00:00:00.000Z', pickupStart: appointment }),
  tourOpened(tour(n), {
    at: '2026-12-02T00:00:00.000Z',
    loadId: load(n),
    proposalId: `cccc0000-0000-4000-8000-00000000000${n}`,
    price: 1000,
  }),
  driverAssigned(tour(n), { at: '2026-12-02T00:00:00.000Z' }),
  entry(tour(n), 'arrived', pickupStop, arrived),
  ...(departed ? [entry(tour(n), 'departed', pickupStop, departed)] : []),
];

const history = [
  locationSaved({ id: savedId, name: 'Chicago DC' }, { at: '2026-11-30T00:00:00.000Z' }),
  ...visit(1, '2026-12-07T14:00:00.000Z', '2026-12-07T14:00:00.000Z', '2026-12-07T15:00:00.000Z'),
  ...visit(2, '2026-12-14T14:00:00.000Z', '2026-12-14T14:10:00.000Z', '2026-12-14T16:10:00.000Z'),
  ...visit(3, '2026-12-21T13:30:00.000Z', '2026-12-21T14:20:00.000Z', '2026-12-21T17:20:00.000Z'),
  detention(tour(3), 0),
  ...visit(4, '2026-12-28T14:00:00.000Z', '2026-12-28T14:00:00.000Z', null),
  on<FacilityEvent>(facilityStream(savedId), {
    type: 'FacilityTagged',
    data: {
      facilityId: savedId,
      tags: ['parking', 'wait'],
      tourId: tour(1),
      taggedBy: driver,
      organizationId: carrier,
      taggedAt: '2026-12-07T16:00:00.000Z',
    },
  }),
];

const visitsOf = (rows: SpecRow[]) =>
  rows
    .filter((row) => row.facility_id === savedId)
    .map((row) => ({
      arrivedAt: row.arrived_at as string | null,
      departedAt: row.departed_at as string | null,
      appointmentAt: row.appointment_at as string | null,
      graceMinutes: Number(row.grace_minutes),
      timeZone: row.time_zone as string,
      detention: Boolean(row.detention),
    }));

t.test('the stops at a saved location are its visits, with their figures', async (t) => {
  const given = spec.given(...history);
  await given.expectRows('facilities_view', [
    { id: savedId, name: 'Chicago DC', organization_id: shipper, founded: 1 },
    // The deliveries in Indianapolis found a facility named by the first delivery stop's id.
    { id: deliveryStop, name: 'Indianapolis warehouse', organization_id: null, founded: 2 },
  ]);
  const visits = await given.rows('facility_visits_view');
  t.equal(visits.length, 8, 'two stops of four tours');
  t.same(
    visits.filter((row) => row.facility_id === savedId).map((row) => row.driver_id),
    [driver, driver, driver, driver],
  );
  t.same(facilityFigures(visitsOf(visits)), {
    visits: 3,
    timeOnSite: { median: 120, p75: 150 },
    byWeekday: [{ weekday: 1, hour: 8, median: 120, visits: 3 }],
    // The third arrived 50 minutes after its appointment, beyond the 30 minutes' grace.
    onTimeShare: 0.75,
    onTimeVisits: 4,
    detentionShare: 0.33,
  });
  await given.expectRows('facility_figures_view', [
    { facility_id: savedId, visits: 3, median_minutes: 120 },
  ]);
  await given.expectRows('facility_tags_view', [
    { facility_id: savedId, user_id: driver, tags: ['parking', 'wait'] },
  ]);
});

t.test('under three visits the figures are null', async (t) => {
  const given = spec.given(...history.slice(0, 1 + 5 * 2));
  const figures = facilityFigures(visitsOf(await given.rows('facility_visits_view')));
  t.equal(figures.visits, 2);
  t.same(figures.timeOnSite, { median: null, p75: null });
  t.equal(figures.onTimeShare, null);
  t.equal(figures.detentionShare, null);
});

t.test('a place 150 m away is the same facility; one 300 m away founds another', async () => {
  const near = { ...chicago, latitude: chicago.latitude + 0.00135 };
  const far = { ...chicago, latitude: chicago.latitude + 0.0027 };
  const given = spec.given(
    loadPosted(load(1), { at: '2026-12-01T00:00:00.000Z' }),
    loadPosted(load(2), {
      at: '2026-12-01T00:00:00.000Z',
      stops: [
        {
          id: '20000000-0000-4000-8000-000000000001',
          locationType: 1,
          address: 'Chicago, IL',
          name: 'Near',
          contactName: null,
          contactPhone: null,
          number: null,
          ...near,
        },
        {
          id: '20000000-0000-4000-8000-000000000002',
          locationType: 4,
          address: 'Chicago, IL',
          name: 'Far',
          contactName: null,
          contactPhone: null,
          number: null,
          ...far,
        },
      ],
    }),
  );
  await given.expectRows('facility_stops_view', [
    { load_id: load(1), stop_id: pickupStop, facility_id: pickupStop },
    { load_id: load(1), stop_id: deliveryStop, facility_id: deliveryStop },
    { load_id: load(2), stop_id: '20000000-0000-4000-8000-000000000001', facility_id: pickupStop },
    {
      load_id: load(2),
      stop_id: '20000000-0000-4000-8000-000000000002',
      facility_id: '20000000-0000-4000-8000-000000000002',
    },
  ]);
});
