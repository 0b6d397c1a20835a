// @postgres: days-to-pay figures and aging over the invoices table, and the same median in SQL
import t from 'tap';
import { invoiceStream, type InvoicePaid } from '../../domain/invoices/invoice.types.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec, recorded } from '../testing.ts';
import { invoiceLife } from '../testing/invoices.ts';
import { carrier, on, otherCarrier, shipper } from '../testing/trade.ts';
import { payerFiguresProjection } from './payerFigures.projection.ts';
import { agingOf, payerFiguresOf } from './payerFigures.queries.ts';

const spec = readModelSpec(payerFiguresProjection, openTestDatabase);
t.teardown(spec.close);

const id = (n: number) => `1a1a0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const parties = { carrierOrganizationId: carrier, shipperOrganizationId: shipper };

t.test(
  'each invoice with its parties, submission, due date and payment; a denied receipt unpays it',
  async () => {
    const given = spec.given(
      ...invoiceLife({ invoiceId: id(1), ...parties, total: 800 }),
      ...invoiceLife({
        invoiceId: id(2),
        ...parties,
        total: 1200,
        termsDays: 15,
        submittedAt: '2026-11-02T09:00:00.000Z',
      }),
      // Paid 10 days and 6 hours after submission, receipt confirmed.
      ...invoiceLife({
        invoiceId: id(3),
        ...parties,
        submittedAt: '2026-10-01T09:00:00.000Z',
        paidAt: '2026-10-11T15:00:00.000Z',
        receipt: 'confirmed',
      }),
      // Paid, then reported not received: unpaid again.
      ...invoiceLife({
        invoiceId: id(4),
        carrierOrganizationId: otherCarrier,
        shipperOrganizationId: shipper,
        submittedAt: '2026-10-01T09:00:00.000Z',
        paidAt: '2026-10-20T09:00:00.000Z',
        receipt: 'denied',
      }),
      // Paid again later: the new payment counts.
      ...invoiceLife({
        invoiceId: id(5),
        ...parties,
        submittedAt: '2026-09-01T09:00:00.000Z',
        paidAt: '2026-09-10T09:00:00.000Z',
        receipt: 'denied',
      }),
      on<InvoicePaid>(invoiceStream(id(5)), {
        type: 'InvoicePaid',
        data: {
          invoiceId: id(5),
          reference: 'ACH-2',
          paidAt: '2026-09-25T21:00:00.000Z',
          amount: 1000,
          recordedBy: '00000000-0000-4000-8000-00000000eeee',
          recordedAt: '2026-09-26T09:00:00.000Z',
        },
      }),
    );
    await given.expectRows('payer_invoices_view', [
      {
        invoice_id: id(1),
        carrier_organization_id: carrier,
        shipper_organization_id: shipper,
        total: 800,
        terms_days: 30,
        submitted_at: null,
        due_at: null,
        paid_at: null,
        days_to_pay: null,
        status: 'draft',
      },
      {
        invoice_id: id(2),
        carrier_organization_id: carrier,
        shipper_organization_id: shipper,
        total: 1200,
        terms_days: 15,
        submitted_at: '2026-11-02T09:00:00.000Z',
        due_at: '2026-11-17T09:00:00.000Z',
        paid_at: null,
        days_to_pay: null,
        status: 'submitted',
      },
      {
        invoice_id: id(3),
        carrier_organization_id: carrier,
        shipper_organization_id: shipper,
        total: 1000,
        terms_days: 30,
        submitted_at: '2026-10-01T09:00:00.000Z',
        due_at: '2026-10-31T09:00:00.000Z',
        paid_at: '2026-10-11T15:00:00.000Z',
        days_to_pay: 10,
        status: 'received',
      },
      {
        invoice_id: id(4),
        carrier_organization_id: otherCarrier,
        shipper_organization_id: shipper,
        total: 1000,
        terms_days: 30,
        submitted_at: '2026-10-01T09:00:00.000Z',
        due_at: '2026-10-31T09:00:00.000Z',
        paid_at: null,
        days_to_pay: null,
        status: 'submitted',
      },
      {
        invoice_id: id(5),
        carrier_organization_id: carrier,
        shipper_organization_id: shipper,
        total: 1000,
        terms_days: 30,
        submitted_at: '2026-09-01T09:00:00.000Z',
        due_at: '2026-10-01T09:00:00.000Z',
        paid_at: '2026-09-25T21:00:00.000Z',
        days_to_pay: 25,
        status: 'paid',
      },
    ]);
  },
);

t.test('figures and aging read from the rows', async (t) => {
  const events = [
    ...[10, 12, 45].flatMap((days, index) =>
      invoiceLife({
        invoiceId: id(10 + index),
        ...parties,
        submittedAt: '2026-09-01T09:00:00.000Z',
        paidAt: new Date(Date.parse('2026-09-01T09:00:00.000Z') + days * 86_400_000).toISOString(),
      }),
    ),
    // Due 2026-10-01: 61 days past due on 2026-12-01.
    ...invoiceLife({
      invoiceId: id(20),
      ...parties,
      total: 300,
      submittedAt: '2026-09-01T09:00:00.000Z',
    }),
    ...invoiceLife({
      invoiceId: id(21),
      carrierOrganizationId: otherCarrier,
      shipperOrganizationId: shipper,
      total: 450,
      submittedAt: '2026-11-20T09:00:00.000Z',
    }),
  ];
  const database = await openTestDatabase();
  t.teardown(() => database.drop());
  const { db } = database;
  await db.transaction().execute((trx) => payerFiguresProjection.apply(trx, recorded(events)));
  const now = new Date('2026-12-01T09:00:00.000Z');
  t.match(await payerFiguresOf(db, shipper, '90d', now), {
    paidCount: 3,
    medianDaysToPay: 12,
    p90DaysToPay: 45,
    paidWithinTermsShare: 0.67,
    overdueAmount: 300,
    status: 'measured',
  });
  t.same(
    (await agingOf(db, shipper, 'payable', now)).filter((bucket) => bucket.count > 0),
    [
      { label: 'current', count: 1, amount: 450 },
      { label: '61-90', count: 1, amount: 300 },
    ],
  );
  t.same(
    (await agingOf(db, carrier, 'receivable', now)).filter((bucket) => bucket.count > 0),
    [{ label: '61-90', count: 1, amount: 300 }],
  );
});
