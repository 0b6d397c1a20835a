// @postgres: the terms columns of loads_view and proposals_view, read in SQL
import { sql } from 'kysely';
import t from 'tap';
import { organization, superadmin } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * The accessorial terms on the rows (docs/api.md "Accessorial terms and claims"): a marketplace row
 * and a shipper's load row carry the load's `terms` (null without); an offer row carries the
 * offer's own `terms` (null: the load's) and its counter's `counterTerms`, the carrier's own offers
 * also the load's; the organization's `defaultTerms` in GET /api/account, a shipper's only.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

const rowOf = (body: { data: { id: string }[] }, id: string) =>
  body.data.find((row) => row.id === id) as Record<string, unknown> | undefined;

t.test(
  'the marketplace and the shipper’s table carry each load’s terms, null without',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const withTerms = await steps.postLoad(shipper, { terms: { tonu: 300, detentionCap: 450 } });
    const withDefaults = await steps.postLoad(shipper);
    const without = await steps.postLoad(shipper, { terms: null });

    const board = await as(carrier).get('/api/loads/carrier', { pageSize: 100 });
    t.equal(board.status, 200, board.text);
    t.match(rowOf(board.body, withTerms.loadId), {
      guid: withTerms.guid,
      terms: {
        freeTimeHours: { pickup: 2, delivery: 2 },
        detentionPerHour: 50,
        detentionCap: 450,
        tonu: 300,
        lumper: 'carrier-reimbursed',
      },
    });
    t.match(rowOf(board.body, withDefaults.loadId), {
      terms: { detentionPerHour: 50, detentionCap: 500, tonu: 150, layoverPerDay: 250 },
    });
    const bare = rowOf(board.body, without.loadId);
    t.ok(bare, 'the load without terms is on the marketplace');
    t.equal(bare?.terms, null, 'a load without terms has terms null');

    const own = await as(shipper).get('/api/loads/shipper', { pageSize: 100 });
    t.equal(own.status, 200, own.text);
    t.match(rowOf(own.body, withTerms.loadId), { terms: { tonu: 300 } });
    t.equal(rowOf(own.body, without.loadId)?.terms, null);

    // An edit's terms reach the rows: other terms on one, none on another.
    const edited = await as(shipper).put('/api/loads', {
      ...loadBody({ terms: { tonu: 350 } }),
      loadId: withTerms.loadId,
    });
    t.equal(edited.status, 200, edited.text);
    const dropped = await as(shipper).put('/api/loads', {
      ...loadBody({ terms: null }),
      loadId: withDefaults.loadId,
    });
    t.equal(dropped.status, 200, dropped.text);
    const after = (await as(carrier).get('/api/loads/carrier', { pageSize: 100 })).body;
    t.match(rowOf(after, withTerms.loadId), { terms: { tonu: 350 } });
    t.equal(rowOf(after, withDefaults.loadId)?.terms, null, 'terms taken off the load');
  },
);

t.test(
  'offer rows: the offer’s own terms, the counter’s terms, the load’s on the carrier’s list',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const other = await organization(app, platform, 'Carrier');
    const { loadId } = await steps.postLoad(shipper, { terms: { tonu: 200 } });

    const proposed = await as(carrier).post(`/api/proposal/${loadId}`, {
      price: 1500,
      terms: { detentionPerHour: 90 },
    });
    t.equal(proposed.status, 201, proposed.text);
    const offerId = proposed.body.id as string;
    const plain = await as(other).post(`/api/proposal/${loadId}`, { price: 1600 });
    t.equal(plain.status, 201, plain.text);

    const listed = await as(shipper).get(`/api/proposal/${loadId}`);
    t.equal(listed.status, 200, listed.text);
    t.match(rowOf(listed.body, offerId), {
      terms: { detentionPerHour: 90, tonu: 200, freeTimeHours: { pickup: 2, delivery: 2 } },
      counterTerms: null,
    });
    t.match(rowOf(listed.body, plain.body.id), { terms: null, counterTerms: null });

    const countered = await as(shipper).put(`/api/proposal/${offerId}`, {
      status: 11,
      price: 1400,
      terms: { tonu: 400 },
    });
    t.equal(countered.status, 200, countered.text);
    t.match(rowOf((await as(shipper).get(`/api/proposal/${loadId}`)).body, offerId), {
      counterPrice: 1400,
      terms: { detentionPerHour: 90, tonu: 200 },
      counterTerms: { detentionPerHour: 90, tonu: 400 },
    });

    const mine = await as(carrier).get('/api/proposals/carrier');
    t.equal(mine.status, 200, mine.text);
    t.match(rowOf(mine.body, offerId), {
      terms: { detentionPerHour: 90, tonu: 200 },
      counterTerms: { tonu: 400 },
      load: { terms: { detentionPerHour: 50, tonu: 200 } },
    });
    const one = await as(carrier).get(`/api/proposal/${loadId}/proposal/${offerId}`);
    t.equal(one.status, 200, one.text);
    t.match(one.body, { counterTerms: { tonu: 400 }, terms: { detentionPerHour: 90 } });

    const taken = await as(carrier).put(`/api/proposal/${offerId}`, { status: 10 });
    t.equal(taken.status, 200, taken.text);
    const after = rowOf((await as(carrier).get('/api/proposals/carrier')).body, offerId);
    t.match(after, { price: 1400, terms: { detentionPerHour: 90, tonu: 400 } });
    t.equal(after?.counterTerms, null, 'the counter’s terms became the offer’s');
  },
);

t.test('GET /api/account gives a shipper its default terms, null for the platform’s', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const before = await as(shipper).get('/api/account');
  t.equal(before.status, 200, before.text);
  t.equal(before.body.organization.defaultTerms, null, 'the platform’s defaults');

  const current = before.body.organization;
  const contact = {
    name: current.name,
    person: current.person,
    address: current.address,
    phone: current.phone,
    email: current.email,
  };
  const saved = await as(shipper).put('/api/users/organization', {
    ...contact,
    defaultTerms: { detentionPerHour: 80, graceMinutes: 15 },
  });
  t.equal(saved.status, 200, saved.text);
  t.match((await as(shipper).get('/api/account')).body.organization.defaultTerms, {
    detentionPerHour: 80,
    graceMinutes: 15,
    tonu: 150,
  });

  const refused = await as(shipper).put('/api/users/organization', {
    ...contact,
    defaultTerms: { tonu: -1 },
  });
  t.equal(refused.status, 400);
  t.match(JSON.stringify(refused.body), /defaultTerms\.tonu/, 'the field is named');

  const reset = await as(shipper).put('/api/users/organization', {
    ...contact,
    defaultTerms: null,
  });
  t.equal(reset.status, 200, reset.text);
  t.equal((await as(shipper).get('/api/account')).body.organization.defaultTerms, null);

  const carrierAccount = await as(carrier).get('/api/account');
  t.equal(carrierAccount.status, 200);
  t.notOk('defaultTerms' in carrierAccount.body.organization, 'a carrier has no default terms');
});

t.test('rebuilt from the log, the rows of earlier loads and offers get their terms', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const admin = await superadmin(app, platform);
  const { loadId } = await steps.postLoad(shipper, { terms: { tonu: 325 } });
  const proposed = await as(carrier).post(`/api/proposal/${loadId}`, {
    price: 1500,
    terms: { layoverPerDay: 275 },
  });
  t.equal(proposed.status, 201, proposed.text);
  // The rows as the read model held them before it had the terms.
  const { db } = platform.database;
  await sql`UPDATE loads_view SET terms = NULL WHERE id = ${loadId}`.execute(db);
  await sql`UPDATE proposals_view SET terms = NULL WHERE load_id = ${loadId}`.execute(db);
  t.equal(
    rowOf((await as(carrier).get('/api/loads/carrier', { pageSize: 100 })).body, loadId)?.terms,
    null,
  );

  const requested = await as(admin).post('/api/admin/projections/marketplace/rebuild', {});
  t.equal(requested.status, 202, requested.text);
  let status = 'rebuilding';
  for (let attempt = 0; attempt < 300 && status === 'rebuilding'; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const models = (await as(admin).get('/api/admin/projections')).body as {
      projection: string;
      status: string;
    }[];
    status = models.find((model) => model.projection === 'marketplace')?.status ?? 'missing';
  }
  t.equal(status, 'running', 'the rebuild finished');
  t.match(rowOf((await as(carrier).get('/api/loads/carrier', { pageSize: 100 })).body, loadId), {
    terms: { tonu: 325 },
  });
  t.match(rowOf((await as(carrier).get('/api/proposals/carrier')).body, proposed.body.id), {
    terms: { layoverPerDay: 275, tonu: 325 },
  });
});
