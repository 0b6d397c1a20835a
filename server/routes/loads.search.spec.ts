// @postgres: the marketplace's radius, equipment and weight filters in SQL
import t from 'tap';
import { organization } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { CHICAGO, INDIANAPOLIS, LOS_ANGELES } from '../testing/loadBodies.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * The carrier's marketplace (GET /api/loads/carrier): an open load found by origin and destination
 * within a radius, by equipment and by weight, with its route miles and the carrier's actions.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test(
  'the marketplace finds a load by origin and destination radius, equipment and weight',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    // Chicago to Indianapolis, 42,000 lb on equipment 5.
    const { loadId, guid } = await steps.postLoad(shipper);
    const marketplace = (filters: unknown[]) => as(carrier).get('/api/loads/carrier', { filters });

    const near = (await marketplace([{ name: 'origin', value: [{ ...CHICAGO, radius: 50 }] }]))
      .body;
    t.equal(near.total, 1);
    t.match(near.data[0], { id: loadId, guid, myProposal: null });
    t.ok(
      near.data[0].distance > 150 && near.data[0].distance < 200,
      `route miles ${near.data[0].distance}`,
    );
    t.same(near.data[0].actions, [1, 5]);
    t.equal(
      (await marketplace([{ name: 'origin', value: [{ ...LOS_ANGELES, radius: 200 }] }])).body
        .total,
      0,
      'not within 200 miles of Los Angeles',
    );
    t.equal(
      (await marketplace([{ name: 'destination', value: [{ ...INDIANAPOLIS, radius: 50 }] }])).body
        .total,
      1,
      'within 50 miles of its destination',
    );
    t.equal(
      (await marketplace([{ name: 'equipment', value: [5] }])).body.total,
      1,
      'its equipment',
    );
    t.equal(
      (await marketplace([{ name: 'equipment', value: [32] }])).body.total,
      0,
      'other equipment',
    );
    t.equal(
      (await marketplace([{ name: 'maxWeight', value: [45000] }])).body.total,
      1,
      'light enough',
    );
    t.equal(
      (await marketplace([{ name: 'maxWeight', value: [40000] }])).body.total,
      0,
      'too heavy',
    );
    t.equal(
      (await marketplace([{ name: 'origin', value: [{ ...CHICAGO, radius: 75 }] }])).status,
      400,
      'radius is 50, 100, 150 or 200',
    );
    t.equal(
      (await as(shipper).get('/api/loads/carrier')).status,
      403,
      'shippers have no marketplace',
    );
  },
);
