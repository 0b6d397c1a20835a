/**
 * Days-to-pay and aging (docs/domain.md "Days-to-pay and aging"): how a shipper pays its carriers'
 * invoices, measured from the invoice events alone, and how much of an organization's open invoices
 * is how far past due. Pure: every figure is computed from the invoices and an instant `now`.
 */

const DAY = 86_400_000;

/** Under this many invoices paid in the window a shipper is a new payer: no figures. */
export const PAID_MEASURED_FROM = 3;

export const payerWindows = ['90d', '365d'] as const;
export type PayerWindow = (typeof payerWindows)[number];
export const windowDays: Readonly<Record<PayerWindow, number>> = { '90d': 90, '365d': 365 };
/** The window the marketplace rows and the load's details show. */
export const ROW_WINDOW: PayerWindow = '365d';

/** Where an invoice's payment stands; a denied receipt takes an invoice back to 'submitted'. */
export type PayerInvoiceStatus = 'draft' | 'submitted' | 'paid' | 'received';

/** One invoice as the figures need it (ISO instants). */
export type PayerInvoice = {
  total: number;
  submittedAt: string | null;
  dueAt: string | null;
  /** When the shipper paid; null while unpaid (and again after the carrier denied the receipt). */
  paidAt: string | null;
};

/**
 * Whole days from submission to payment: the elapsed time in 24-hour days, rounded to the nearest
 * day (half a day up), never below 0. A payment 10 days and 6 hours after submission took 10 days.
 */
export const daysToPay = (submittedAt: string, paidAt: string): number =>
  Math.max(0, Math.round((Date.parse(paidAt) - Date.parse(submittedAt)) / DAY));

/** The median of ascending numbers: the middle one, or the mean of the two middle ones. */
export const median = (sorted: readonly number[]): number | null => {
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The 90th percentile of ascending numbers by the nearest-rank rule: the value at rank
 * ⌈0.9 × n⌉ (1-based), always one of the measured values. Of 10 values the 9th, of 3 the 3rd.
 */
export const p90 = (sorted: readonly number[]): number | null =>
  sorted.length === 0 ? null : sorted[Math.ceil(0.9 * sorted.length) - 1]!;

export type PayerFigures = {
  paidCount: number;
  /** Days from submission to payment; to one decimal (a median of an even count may end in .5). */
  medianDaysToPay: number | null;
  p90DaysToPay: number | null;
  /** 0 to 1, two decimals: the paid invoices paid by their due date (paidAt <= dueAt). */
  paidWithinTermsShare: number | null;
  /** The total of the invoices unpaid past their due date whose due date is inside the window. */
  overdueAmount: number | null;
  window: PayerWindow;
  status: 'new' | 'measured';
};

const round = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;

const within = (at: string, since: number, now: number) => {
  const instant = Date.parse(at);
  return instant > since && instant <= now;
};

/**
 * A shipper's figures over a window ending at `now`. An invoice paid inside the window (`paidAt`
 * later than `now` minus the window's days) counts for the days-to-pay and the within-terms share;
 * an invoice unpaid past its due date whose due date falls inside the window counts for the overdue
 * amount. Drafts never count: an invoice is measured from its submission. Under
 * `PAID_MEASURED_FROM` paid invoices every figure is null and the status 'new'.
 */
export function payerFigures(
  invoices: readonly PayerInvoice[],
  window: PayerWindow,
  now: Date | string,
): PayerFigures {
  const end = typeof now === 'string' ? Date.parse(now) : now.getTime();
  const since = end - windowDays[window] * DAY;
  const paid = invoices.filter(
    (invoice): invoice is PayerInvoice & { submittedAt: string; paidAt: string } =>
      invoice.submittedAt !== null && invoice.paidAt !== null && within(invoice.paidAt, since, end),
  );
  const paidCount = paid.length;
  if (paidCount < PAID_MEASURED_FROM)
    return {
      paidCount,
      medianDaysToPay: null,
      p90DaysToPay: null,
      paidWithinTermsShare: null,
      overdueAmount: null,
      window,
      status: 'new',
    };
  const days = paid
    .map((invoice) => daysToPay(invoice.submittedAt, invoice.paidAt))
    .sort((a, b) => a - b);
  const onTime = paid.filter(
    (invoice) => invoice.dueAt !== null && Date.parse(invoice.paidAt) <= Date.parse(invoice.dueAt),
  ).length;
  const overdue = invoices
    .filter(
      (invoice) =>
        invoice.submittedAt !== null &&
        invoice.paidAt === null &&
        invoice.dueAt !== null &&
        Date.parse(invoice.dueAt) < end &&
        Date.parse(invoice.dueAt) > since,
    )
    .reduce((sum, invoice) => sum + invoice.total, 0);
  return {
    paidCount,
    medianDaysToPay: round(median(days)!, 1),
    p90DaysToPay: p90(days),
    paidWithinTermsShare: round(onTime / paidCount, 2),
    overdueAmount: round(overdue, 2),
    window,
    status: 'measured',
  };
}

/** The payer figure a load row shows: the shipper's median and within-terms share over `ROW_WINDOW`. */
export type LoadPayer = {
  medianDaysToPay: number | null;
  paidWithinTermsShare: number | null;
  status: 'new' | 'measured';
};

export const loadPayerOf = (figures: PayerFigures): LoadPayer => ({
  medianDaysToPay: figures.medianDaysToPay,
  paidWithinTermsShare: figures.paidWithinTermsShare,
  status: figures.status,
});

export const agingLabels = ['current', '1-30', '31-60', '61-90', '90+'] as const;
export type AgingLabel = (typeof agingLabels)[number];
export type AgingBucket = { label: AgingLabel; count: number; amount: number };

/**
 * Days past due, counted in started days: an invoice 2 hours past its due date is 1 day past due;
 * 0 until its due date has passed.
 */
export const daysPastDue = (dueAt: string, now: Date | string): number => {
  const end = typeof now === 'string' ? Date.parse(now) : now.getTime();
  return Math.max(0, Math.ceil((end - Date.parse(dueAt)) / DAY));
};

export const agingLabelOf = (pastDue: number): AgingLabel =>
  pastDue <= 0
    ? 'current'
    : pastDue <= 30
      ? '1-30'
      : pastDue <= 60
        ? '31-60'
        : pastDue <= 90
          ? '61-90'
          : '90+';

/**
 * The aging of open invoices (submitted, not paid) at `now`: every bucket, in order, with its count
 * and amount (two decimals). Current is not yet past due; then 1-30, 31-60, 61-90 and over 90 days
 * past due. Drafts and paid invoices are not open.
 */
export function agingBuckets(invoices: readonly PayerInvoice[], now: Date | string): AgingBucket[] {
  const buckets = new Map<AgingLabel, AgingBucket>(
    agingLabels.map((label) => [label, { label, count: 0, amount: 0 }]),
  );
  for (const invoice of invoices) {
    if (invoice.submittedAt === null || invoice.paidAt !== null || invoice.dueAt === null) continue;
    const bucket = buckets.get(agingLabelOf(daysPastDue(invoice.dueAt, now)))!;
    bucket.count += 1;
    bucket.amount = round(bucket.amount + invoice.total, 2);
  }
  return [...buckets.values()];
}
