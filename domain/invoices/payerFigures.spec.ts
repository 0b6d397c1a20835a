import t from 'tap';
import {
  agingBuckets,
  daysPastDue,
  daysToPay,
  median,
  p90,
  payerFigures,
  type PayerInvoice,
} from './payerFigures.ts';

const now = '2026-12-01T12:00:00.000Z';
const DAY = 86_400_000;
const daysBefore = (days: number) => new Date(Date.parse(now) - days * DAY).toISOString();

/** An invoice submitted `submitted` days before now on 30-day terms, paid `paid` days before now (or unpaid). */
const invoice = (submitted: number, paid: number | null, total = 1000): PayerInvoice => ({
  total,
  submittedAt: daysBefore(submitted),
  dueAt: daysBefore(submitted - 30),
  paidAt: paid === null ? null : daysBefore(paid),
});

t.test('days to pay: whole days, half a day up, never below zero', async (t) => {
  t.equal(daysToPay('2026-11-01T09:00:00Z', '2026-11-11T09:00:00Z'), 10);
  t.equal(daysToPay('2026-11-01T09:00:00Z', '2026-11-11T15:00:00Z'), 10);
  t.equal(daysToPay('2026-11-01T09:00:00Z', '2026-11-11T21:00:00Z'), 11);
  t.equal(daysToPay('2026-11-01T09:00:00Z', '2026-11-01T08:00:00Z'), 0);
});

t.test('median and the 90th percentile by nearest rank', async (t) => {
  t.equal(median([]), null);
  t.equal(median([4, 9, 30]), 9);
  t.equal(median([4, 9, 12, 30]), 10.5);
  // Nearest rank: ⌈0.9 × n⌉, 1-based.
  t.equal(p90([]), null);
  t.equal(p90([4, 9, 30]), 30, 'of three, the third');
  t.equal(p90([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 9, 'of ten, the ninth');
  t.equal(p90([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), 10, 'of eleven, the tenth');
});

t.test('a payer with fewer than three paid invoices is new: no figures', async (t) => {
  const figures = payerFigures([invoice(40, 30), invoice(50, 10), invoice(20, null)], '90d', now);
  t.same(figures, {
    paidCount: 2,
    medianDaysToPay: null,
    p90DaysToPay: null,
    paidWithinTermsShare: null,
    overdueAmount: null,
    window: '90d',
    status: 'new',
  });
  t.equal(payerFigures([], '365d', now).status, 'new');
});

t.test('figures from known dates: median, p90, share within terms, overdue', async (t) => {
  const invoices = [
    invoice(60, 50), // 10 days, within terms
    invoice(70, 58), // 12 days, within terms
    invoice(80, 35), // 45 days, late
    invoice(100, 70), // 30 days: paid on the due date, within terms
    invoice(45, null, 250), // due 15 days ago: overdue
    invoice(35, null, 500.255), // due 5 days ago: overdue
    invoice(10, null, 9000), // due in 20 days: not overdue
    { total: 7000, submittedAt: null, dueAt: null, paidAt: null }, // a draft: never counts
  ];
  t.same(payerFigures(invoices, '90d', now), {
    paidCount: 4,
    medianDaysToPay: 21,
    p90DaysToPay: 45,
    paidWithinTermsShare: 0.75,
    overdueAmount: 750.26,
    window: '90d',
    status: 'measured',
  });
});

t.test(
  'windows: paid inside the window by the payment date, overdue by the due date',
  async (t) => {
    const invoices = [
      invoice(20, 10), // 10 days, paid 10 days ago
      invoice(30, 20), // 10 days
      invoice(45, 25), // 20 days
      invoice(200, 150), // 50 days, late, paid 150 days ago: only the year
      invoice(300, 200), // 100 days, late, paid 200 days ago: only the year
      invoice(400, 390), // paid 390 days ago: in neither
      invoice(160, null, 300), // due 130 days ago: overdue in the year only
      invoice(50, null, 200), // due 20 days ago: overdue in both
    ];
    const quarter = payerFigures(invoices, '90d', now);
    t.match(quarter, {
      paidCount: 3,
      medianDaysToPay: 10,
      p90DaysToPay: 20,
      paidWithinTermsShare: 1,
      overdueAmount: 200,
      status: 'measured',
    });
    const year = payerFigures(invoices, '365d', now);
    t.match(year, {
      paidCount: 5,
      medianDaysToPay: 20,
      p90DaysToPay: 100,
      paidWithinTermsShare: 0.6,
      overdueAmount: 500,
      window: '365d',
      status: 'measured',
    });
    // The same invoices a quarter later: the 90 days hold nothing paid, so the payer reads as new there.
    t.equal(payerFigures(invoices, '90d', daysBefore(-95)).status, 'new');
  },
);

t.test('a denied receipt is an unpaid invoice again: it no longer counts as paid', async (t) => {
  const paidThrice = [invoice(30, 20), invoice(40, 30), invoice(50, 40)];
  t.equal(payerFigures(paidThrice, '90d', now).status, 'measured');
  const denied = [...paidThrice.slice(0, 2), { ...paidThrice[2]!, paidAt: null }];
  t.match(payerFigures(denied, '90d', now), { paidCount: 2, status: 'new' });
});

t.test('aging: open invoices by days past due, every bucket in order', async (t) => {
  t.equal(daysPastDue(daysBefore(0), now), 0);
  t.equal(daysPastDue(daysBefore(1 / 12), now), 1, 'two hours past due is one day');
  t.equal(daysPastDue(daysBefore(-3), now), 0, 'not yet due');
  const open = (pastDue: number, total: number): PayerInvoice => ({
    total,
    submittedAt: daysBefore(pastDue + 30),
    dueAt: daysBefore(pastDue),
    paidAt: null,
  });
  t.same(
    agingBuckets(
      [
        open(-10, 100),
        open(0, 50.5),
        open(1, 200),
        open(30, 300),
        open(31, 400),
        open(60, 10),
        open(61, 20),
        open(90, 30),
        open(91, 1000),
        open(400, 1),
        invoice(60, 50), // paid: not open
        { total: 7000, submittedAt: null, dueAt: null, paidAt: null }, // a draft: not open
      ],
      now,
    ),
    [
      { label: 'current', count: 2, amount: 150.5 },
      { label: '1-30', count: 2, amount: 500 },
      { label: '31-60', count: 2, amount: 410 },
      { label: '61-90', count: 2, amount: 50 },
      { label: '90+', count: 2, amount: 1001 },
    ],
  );
  t.same(
    agingBuckets([], now).map((bucket) => bucket.count),
    [0, 0, 0, 0, 0],
  );
});
