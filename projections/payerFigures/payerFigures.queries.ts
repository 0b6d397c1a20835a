import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import {
  agingBuckets,
  loadPayerOf,
  PAID_MEASURED_FROM,
  payerFigures,
  ROW_WINDOW,
  windowDays,
  type AgingBucket,
  type LoadPayer,
  type PayerFigures,
  type PayerInvoice,
  type PayerWindow,
} from '../../domain/invoices/payerFigures.ts';
import type { DB } from '../../storage/schema.ts';

const DAY = 86_400_000;
const iso = (value: Date | string | null) =>
  value === null
    ? null
    : value instanceof Date
      ? value.toISOString()
      : new Date(value).toISOString();

/**
 * The invoices of these shippers that a window ending at `now` may count: paid inside it, or
 * unpaid (overdue ones are counted by their due date, open ones by no date).
 */
async function invoicesOfShippers(
  db: Kysely<DB>,
  shippers: readonly string[],
  since: Date,
): Promise<Map<string, PayerInvoice[]>> {
  const answer = new Map<string, PayerInvoice[]>();
  if (shippers.length === 0) return answer;
  const rows = await db
    .selectFrom('payer_invoices_view')
    .select(['shipper_organization_id', 'total', 'submitted_at', 'due_at', 'paid_at'])
    .where('shipper_organization_id', 'in', [...shippers])
    .where('submitted_at', 'is not', null)
    .where((eb) => eb.or([eb('paid_at', 'is', null), eb('paid_at', '>', since)]))
    .execute();
  for (const row of rows) {
    const list = answer.get(row.shipper_organization_id) ?? [];
    list.push({
      total: Number(row.total),
      submittedAt: iso(row.submitted_at),
      dueAt: iso(row.due_at),
      paidAt: iso(row.paid_at),
    });
    answer.set(row.shipper_organization_id, list);
  }
  return answer;
}

/** One shipper's days-to-pay figures over a window ending at `now`. */
export async function payerFiguresOf(
  db: Kysely<DB>,
  shipperOrganizationId: string,
  window: PayerWindow,
  now: Date,
): Promise<PayerFigures> {
  const since = new Date(now.getTime() - windowDays[window] * DAY);
  const invoices = await invoicesOfShippers(db, [shipperOrganizationId], since);
  return payerFigures(invoices.get(shipperOrganizationId) ?? [], window, now);
}

/** The payer figure of each of these shippers, as load rows show it (`ROW_WINDOW`). */
export async function payerOfShippers(
  db: Kysely<DB>,
  shippers: readonly string[],
  now: Date,
): Promise<Map<string, LoadPayer>> {
  const unique = [...new Set(shippers)];
  const since = new Date(now.getTime() - windowDays[ROW_WINDOW] * DAY);
  const invoices = await invoicesOfShippers(db, unique, since);
  return new Map(
    unique.map((shipper) => [
      shipper,
      loadPayerOf(payerFigures(invoices.get(shipper) ?? [], ROW_WINDOW, now)),
    ]),
  );
}

/**
 * A condition on a shipper id column: the shipper is measured over `ROW_WINDOW` (at least
 * `PAID_MEASURED_FROM` invoices paid in it) and its median days to pay is at most `maxDays`. The
 * median is PostgreSQL's `percentile_cont(0.5)` over the same whole days as `payerFigures`' median.
 */
export function paysWithin(shipperColumn: string, maxDays: number, now: Date): Expression<SqlBool> {
  const since = new Date(now.getTime() - windowDays[ROW_WINDOW] * DAY);
  return sql<SqlBool>`${sql.ref(shipperColumn)} IN (
    SELECT shipper_organization_id FROM payer_invoices_view
    WHERE days_to_pay IS NOT NULL AND paid_at > ${since.toISOString()}::timestamptz
      AND paid_at <= ${now.toISOString()}::timestamptz
    GROUP BY shipper_organization_id
    HAVING count(*) >= ${PAID_MEASURED_FROM}
      AND percentile_cont(0.5) WITHIN GROUP (ORDER BY days_to_pay) <= ${maxDays}::float8)`;
}

/**
 * The aging of an organization's open invoices at `now`: a carrier's receivables (the invoices it
 * sent) or a shipper's payables (the invoices it received).
 */
export async function agingOf(
  db: Kysely<DB>,
  organizationId: string,
  side: 'receivable' | 'payable',
  now: Date,
): Promise<AgingBucket[]> {
  const rows = await db
    .selectFrom('payer_invoices_view')
    .select(['total', 'submitted_at', 'due_at', 'paid_at'])
    .where(
      side === 'receivable' ? 'carrier_organization_id' : 'shipper_organization_id',
      '=',
      organizationId,
    )
    .where('submitted_at', 'is not', null)
    .where('paid_at', 'is', null)
    .execute();
  return agingBuckets(
    rows.map((row) => ({
      total: Number(row.total),
      submittedAt: iso(row.submitted_at),
      dueAt: iso(row.due_at),
      paidAt: iso(row.paid_at),
    })),
    now,
  );
}
