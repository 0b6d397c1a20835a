import { sql } from 'kysely';
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { invoiceStream } from '../../domain/invoices/invoice.types.ts';
import { payerFiguresProjection } from '../../projections/payerFigures/payerFigures.projection.ts';
import { ProjectionRunner, resetProjection } from '../../projections/runner.ts';
import { invoiceLife, type InvoiceLife } from '../../projections/testing/invoices.ts';
import { organization } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Reprojecting from the log gives the same days-to-pay rows, figures and aging, row for row: invoices
 * drafted, submitted, paid, confirmed, paid and reported not received, and paid again, for two
 * shippers and two carriers; the read model is then emptied and rebuilt from position 0 in small
 * pages, and every row of `payer_invoices_view`, every shipper's figures and every aging must come
 * back the same.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const shippers = [
  await organization(app, platform, 'Shipper'),
  await organization(app, platform, 'Shipper'),
];
const carriers = [
  await organization(app, platform, 'Carrier'),
  await organization(app, platform, 'Carrier'),
];
const names = [payerFiguresProjection.name];

const append = async (life: InvoiceLife) => {
  const events = invoiceLife(life).map(({ streamId: _, ...event }) => event);
  // One append per step, as the commands write them.
  for (const [revision, event] of events.entries())
    await platform.store.append(invoiceStream(life.invoiceId), [event], {
      expectedRevision: revision === 0 ? 'no_stream' : revision - 1,
      metadata: {
        userId: null,
        organizationId: life.carrierOrganizationId,
        correlationId: null,
        causationId: null,
        at: new Date().toISOString(),
      },
    });
};

const rowsOf = async () =>
  (
    await sql<
      Record<string, unknown>
    >`SELECT * FROM payer_invoices_view ORDER BY invoice_id`.execute(platform.database.db)
  ).rows;
const answers = async () => {
  const figures = [];
  for (const shipper of shippers)
    for (const window of ['90d', '365d'])
      figures.push(
        (
          await as(carriers[0]!).get(
            `/api/insights/payers/${shipper.organizationId}?window=${window}`,
          )
        ).body,
      );
  const aging = [];
  for (const party of [...shippers, ...carriers])
    aging.push((await as(party).get('/api/insights/aging')).body);
  return { figures, aging };
};

t.test('days-to-pay rebuilt from the log equals the live read model', async (t) => {
  let n = 0;
  for (const [s, shipper] of shippers.entries())
    for (let k = 0; k < 9; k++) {
      const submitted = 20 + k * 35 + s * 3;
      const days = s === 0 ? 8 + (k % 5) : 35 + ((k * 7) % 20);
      await append({
        invoiceId: randomUUID(),
        carrierOrganizationId: carriers[n++ % 2]!.organizationId!,
        shipperOrganizationId: shipper.organizationId!,
        total: 700 + k * 111.11,
        submittedAt: daysAgo(submitted),
        ...(k % 4 === 3 ? {} : { paidAt: daysAgo(Math.max(0, submitted - days)) }),
        ...(k === 5
          ? { receipt: 'denied' as const }
          : k % 2 === 0
            ? { receipt: 'confirmed' as const }
            : {}),
      });
    }
  // A draft, and an invoice paid again after its receipt was denied.
  await append({
    invoiceId: randomUUID(),
    carrierOrganizationId: carriers[0]!.organizationId!,
    shipperOrganizationId: shippers[1]!.organizationId!,
  });
  const again = randomUUID();
  await append({
    invoiceId: again,
    carrierOrganizationId: carriers[1]!.organizationId!,
    shipperOrganizationId: shippers[0]!.organizationId!,
    submittedAt: daysAgo(40),
    paidAt: daysAgo(30),
    receipt: 'denied',
  });
  await platform.store.append(
    invoiceStream(again),
    [
      {
        type: 'InvoicePaid',
        data: {
          invoiceId: again,
          reference: 'ACH-2',
          paidAt: daysAgo(20),
          amount: 1000,
          recordedBy: randomUUID(),
          recordedAt: daysAgo(20),
        },
      },
    ],
    {
      expectedRevision: 3,
      metadata: {
        userId: null,
        organizationId: shippers[0]!.organizationId!,
        correlationId: null,
        causationId: null,
        at: new Date().toISOString(),
      },
    },
  );

  const head = await platform.store.committedHead();
  t.ok(await platform.runner.waitFor(names, head, 20_000), 'the live read model reached the head');
  const live = await rowsOf();
  const liveAnswers = await answers();
  t.equal(live.length, 20, 'every invoice has its row');
  t.same(
    [...new Set(live.map((row) => row.status))].sort(),
    ['draft', 'paid', 'received', 'submitted'],
    'every state of a payment is in the log',
  );
  t.same(
    liveAnswers.figures.map((figures) => figures.status),
    ['measured', 'measured', 'measured', 'measured'],
  );

  await platform.runner.stop();
  try {
    await platform.database.db.transaction().execute(async (trx) => {
      await resetProjection(trx, payerFiguresProjection);
    });
    t.same(await rowsOf(), [], 'the rows are gone before the rebuild');
    const runner = new ProjectionRunner(
      platform.database,
      platform.store,
      [payerFiguresProjection],
      {
        pageSize: 7,
        lockRetryMs: 200,
      },
    );
    await runner.start();
    t.ok(await runner.waitFor(names, head, 60_000), 'the rebuild reached the head');
    await runner.stop();
  } finally {
    await platform.runner.start();
  }
  t.same(await rowsOf(), live, 'payer_invoices_view: the same rows after the rebuild');
  t.same(await answers(), liveAnswers, 'the same figures and aging after the rebuild');
});
