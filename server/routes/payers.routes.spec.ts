// @postgres: the pays-within filter (a median in SQL, percentile_cont) agreeing with the figure shown
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { invoiceStream } from '../../domain/invoices/invoice.types.ts';
import { Role } from '../../domain/permissions.ts';
import { invoiceLife, type InvoiceLife } from '../../projections/testing/invoices.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Days-to-pay and aging as their readers see them: a shipper's figures for any Active user ('new'
 * under three paid invoices, 404 for an unknown organization or a carrier), the aging of the caller's
 * own open invoices as JSON and CSV, and the payer figure on the marketplace's rows, its
 * `maxDaysToPay` filter and one load's details.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);
const admin = await superadmin(app, platform);

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const fastShipper = await organization(app, platform, 'Shipper');
const newShipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const otherCarrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);

const append = async (life: Omit<InvoiceLife, 'invoiceId'>) => {
  const invoiceId = randomUUID();
  const events = invoiceLife({ invoiceId, ...life }).map(({ streamId: _, ...event }) => event);
  await platform.store.append(invoiceStream(invoiceId), events, {
    expectedRevision: 'no_stream',
    metadata: {
      userId: null,
      organizationId: life.carrierOrganizationId,
      correlationId: null,
      causationId: null,
      at: new Date().toISOString(),
    },
  });
};
const fast = {
  carrierOrganizationId: carrier.organizationId!,
  shipperOrganizationId: fastShipper.organizationId!,
};
// Paid in 10, 12 and 45 days (the last one late on 30-day terms), one receipt denied (unpaid again).
for (const [submitted, days] of [
  [60, 10],
  [50, 12],
  [80, 45],
])
  await append({
    ...fast,
    submittedAt: daysAgo(submitted),
    paidAt: daysAgo(submitted - days),
    receipt: 'confirmed',
  });
await append({ ...fast, submittedAt: daysAgo(70), paidAt: daysAgo(65), receipt: 'denied' });
// Open: due in 20 days (current), 40 days past due (denied above) and 5 days past due.
await append({ ...fast, total: 400, submittedAt: daysAgo(10) });
await append({ ...fast, total: 250.5, submittedAt: daysAgo(35) });
// The new shipper: two paid, one open from another carrier.
const fresh = {
  carrierOrganizationId: otherCarrier.organizationId!,
  shipperOrganizationId: newShipper.organizationId!,
};
await append({ ...fresh, submittedAt: daysAgo(40), paidAt: daysAgo(20) });
await append({ ...fresh, submittedAt: daysAgo(30), paidAt: daysAgo(15) });
// A draft is never counted.
await append({ ...fresh, total: 5000 });

await platform.runner.waitFor(['payerFigures'], await platform.store.committedHead(), 20_000);

t.test("a shipper's figures: any Active user reads them, over 90 or 365 days", async (t) => {
  const url = `/api/insights/payers/${fastShipper.organizationId}`;
  const measured = {
    paidCount: 3,
    medianDaysToPay: 12,
    p90DaysToPay: 45,
    paidWithinTermsShare: 0.67,
    overdueAmount: 1250.5,
    status: 'measured',
  };
  for (const reader of [otherCarrier, driver, newShipper, admin]) {
    const reply = await as(reader).get(`${url}?window=90d`);
    t.equal(reply.status, 200, reply.text);
    t.same(reply.body, { ...measured, window: '90d' });
  }
  t.same((await as(carrier).get(url)).body, { ...measured, window: '365d' }, '365d by default');
  t.same((await as(carrier).get(`/api/insights/payers/${newShipper.organizationId}`)).body, {
    paidCount: 2,
    medianDaysToPay: null,
    p90DaysToPay: null,
    paidWithinTermsShare: null,
    overdueAmount: null,
    window: '365d',
    status: 'new',
  });
});

t.test('an unknown organization or a carrier is 404; bad input names its field', async (t) => {
  for (const id of [randomUUID(), carrier.organizationId]) {
    const reply = await as(carrier).get(`/api/insights/payers/${id}`);
    t.equal(reply.status, 404, reply.text);
  }
  const badWindow = await as(carrier).get(
    `/api/insights/payers/${fastShipper.organizationId}?window=30d`,
  );
  t.equal(badWindow.status, 400);
  t.match(badWindow.text, /window is 90d or 365d/);
  t.equal((await as(carrier).get('/api/insights/payers/not-an-id')).status, 400);
  t.equal((await as(null).get(`/api/insights/payers/${fastShipper.organizationId}`)).status, 401);
});

t.test("aging: the carrier's receivables, the shipper's payables, as JSON and CSV", async (t) => {
  const receivable = await as(carrier).get('/api/insights/aging');
  t.equal(receivable.status, 200, receivable.text);
  t.same(receivable.body, {
    buckets: [
      { label: 'current', count: 1, amount: 400 },
      { label: '1-30', count: 1, amount: 250.5 },
      { label: '31-60', count: 1, amount: 1000 },
      { label: '61-90', count: 0, amount: 0 },
      { label: '90+', count: 0, amount: 0 },
    ],
    side: 'receivable',
  });
  const payable = await as(newShipper).get('/api/insights/aging');
  t.same(payable.body, {
    buckets: [
      { label: 'current', count: 0, amount: 0 },
      { label: '1-30', count: 0, amount: 0 },
      { label: '31-60', count: 0, amount: 0 },
      { label: '61-90', count: 0, amount: 0 },
      { label: '90+', count: 0, amount: 0 },
    ],
    side: 'payable',
  });
  t.equal(
    (await as(fastShipper).get('/api/insights/aging')).body.side,
    'payable',
    "the fast shipper's payables",
  );
  const csv = await as(carrier).get('/api/insights/aging?format=csv');
  t.equal(csv.status, 200);
  t.match(csv.headers['content-type'], /^text\/csv/);
  t.match(
    csv.headers['content-disposition'],
    /attachment; filename="?aging-receivable-\d{4}-\d{2}-\d{2}\.csv/,
  );
  t.equal(
    csv.text,
    'label,count,amount\r\ncurrent,1,400.00\r\n1-30,1,250.50\r\n31-60,1,1000.00\r\n61-90,0,0.00\r\n90+,0,0.00\r\n',
  );
  t.equal((await as(carrier).get('/api/insights/aging?format=xml')).status, 400);
  t.equal((await as(admin).get('/api/insights/aging')).status, 403, 'a Superadmin has no invoices');
  t.equal((await as(driver).get('/api/insights/aging')).status, 403, 'a driver does not read them');
  t.equal((await as(null).get('/api/insights/aging')).status, 401);
});

t.test('the payer figure on the marketplace rows, its filter, and one load', async (t) => {
  const { loadId: fastLoad } = await steps.postLoad(fastShipper);
  const { loadId: newLoad } = await steps.postLoad(newShipper);
  const rowOf = async (query: string, loadId: string) => {
    const reply = await as(otherCarrier).get(`/api/loads/carrier?pageSize=100${query}`);
    t.equal(reply.status, 200, reply.text);
    return reply.body.data.find((row: { id: string }) => row.id === loadId);
  };
  t.same((await rowOf('', fastLoad)).payer, {
    medianDaysToPay: 12,
    paidWithinTermsShare: 0.67,
    status: 'measured',
  });
  t.same((await rowOf('', newLoad)).payer, {
    medianDaysToPay: null,
    paidWithinTermsShare: null,
    status: 'new',
  });
  t.ok(await rowOf('&maxDaysToPay=12', fastLoad), 'a median of 12 pays within 12 days');
  t.notOk(await rowOf('&maxDaysToPay=11', fastLoad), 'not within 11');
  t.notOk(await rowOf('&maxDaysToPay=365', newLoad), "a new payer is left out once it's set");
  const filters = encodeURIComponent(JSON.stringify([{ name: 'maxDaysToPay', value: [30] }]));
  t.ok(await rowOf(`&filters=${filters}`, fastLoad), 'the table protocol filter too');
  const bad = await as(otherCarrier).get('/api/loads/carrier?maxDaysToPay=ten');
  t.equal(bad.status, 400);
  t.match(bad.text, /maxDaysToPay/);
  const one = await as(otherCarrier).get(`/api/loads/${fastLoad}`);
  t.equal(one.status, 200, one.text);
  t.same(one.body.payer, { medianDaysToPay: 12, paidWithinTermsShare: 0.67, status: 'measured' });
});
