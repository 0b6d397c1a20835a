import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import {
  chicago,
  detroit,
  details,
  loadAccepted,
  loadCanceled,
  loadEdited,
  loadExpired,
  loadPosted,
} from '../testing/trade.ts';
import { laneMiles, laneRatesProjection } from './laneRates.projection.ts';

const spec = readModelSpec(laneRatesProjection, openTestDatabase);
t.teardown(spec.close);

const load = '7d4f3a2e-1b0c-4d5e-8f6a-9b8c7d6e5f40';
const offer = 'aaaa1111-2222-5333-8444-555566667777';
const tour = 'bbbb1111-2222-4333-8444-555566667777';
const posted = '2026-11-30T10:00:00.000Z';
const accepted = '2026-12-02T10:00:00.000Z';

/** Road miles as the read model stores them (numeric, one decimal). */
const miles = (change: Parameters<typeof details>[0] = {}) => laneMiles(details(change)).toFixed(1);

t.test('a posted load’s lane: its ends, equipment and road miles; no price yet', async () => {
  const given = spec.given(loadPosted(load, { at: posted }));
  await given.expectRows('lane_loads_view', [
    {
      load_id: load,
      pickup_city: 'Chicago',
      pickup_state: 'IL',
      dropoff_city: 'Indianapolis',
      dropoff_state: 'IN',
      equipment: [15],
      miles: miles(),
    },
  ]);
  await given.expectRows('lane_rates_view', []);
});

t.test('an edited load moves its lane', async () => {
  await spec
    .given(loadPosted(load, { at: posted }), loadEdited(load, { at: posted, to: detroit }))
    .expectRows('lane_loads_view', [
      { load_id: load, dropoff_city: 'Detroit', miles: miles({ to: detroit }) },
    ]);
});

t.test('an accepted offer is an agreed price on the lane, in the month it was agreed', async () => {
  await spec
    .given(
      loadPosted(load, { at: posted }),
      loadEdited(load, { at: posted, to: detroit }),
      loadAccepted(load, { at: accepted, proposalId: offer, tourId: tour, price: 2450 }),
    )
    .expectRows('lane_rates_view', [
      {
        proposal_id: offer,
        load_id: load,
        pickup_latitude: chicago.latitude,
        dropoff_city: 'Detroit',
        equipment: [15],
        price: '2450.00',
        miles: miles({ to: detroit }),
        month: '2026-12',
        accepted_at: accepted,
      },
    ]);
});

t.test('a load cancelled after its acceptance takes its price out again', async () => {
  const given = spec.given(
    loadPosted(load, { at: posted }),
    loadAccepted(load, { at: accepted, proposalId: offer, tourId: tour, price: 2450 }),
    loadCanceled(load, { at: accepted }),
  );
  await given.expectRows('lane_rates_view', []);
  await given.expectRows('lane_loads_view', [{ load_id: load }]);
});

t.test('an expired load changes no lane', async () => {
  await spec
    .given(loadPosted(load, { at: posted }), loadExpired(load, { at: accepted }))
    .expectRows('lane_loads_view', [{ load_id: load, miles: miles() }]);
  await spec.given(loadExpired(load, { at: accepted })).expectRows('lane_loads_view', []);
});
