import { sql, type Kysely } from 'kysely';
import { invoiceStatusAt } from '../../domain/invoices/invoice.decide.ts';
import type {
  InvoiceLineState,
  InvoiceStatus,
  RemitTo,
  StoredInvoiceStatus,
} from '../../domain/invoices/invoice.types.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';

const iso = (value: Date | string | null): string | null =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** Whose invoices a reader sees: a carrier its receivables, a shipper its payables, a Superadmin all. */
export type InvoiceScope =
  | { side: 'carrier'; organizationId: string }
  | { side: 'shipper'; organizationId: string }
  | { side: 'all' };

/** The columns GET invoices orders by (the table protocol's `order`), as SQL. */
export const INVOICES_ORDER: Record<string, string> = {
  number: 'i.number',
  loadGuid: 'i.load_guid',
  carrier: 'c.name',
  shipper: 's.name',
  status: 'i.status',
  total: 'i.total',
  dueAt: 'i.due_at',
  submittedAt: 'i.submitted_at',
  paidAt: 'i.paid_at',
  draftedAt: 'i.drafted_at',
};

const base = (db: Kysely<DB>) =>
  db
    .selectFrom('invoices_view as i')
    .leftJoin('organizations_view as c', 'c.id', 'i.carrier_organization_id')
    .leftJoin('organizations_view as s', 's.id', 'i.shipper_organization_id')
    .selectAll('i')
    .select(['c.name as carrier_name', 's.name as shipper_name']);

type Joined = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;

export type InvoiceRow = {
  id: string;
  number: string;
  loadId: string;
  loadGuid: string;
  tourId: string;
  carrierOrganizationId: string;
  shipperOrganizationId: string;
  carrier: string | null;
  shipper: string | null;
  status: InvoiceStatus;
  total: number;
  dueAt: string | null;
  submittedAt: string | null;
  paidAt: string | null;
  draftedAt: string;
};
export type InvoiceDetail = InvoiceRow & {
  stage: StoredInvoiceStatus;
  lines: InvoiceLineState[];
  remitTo: RemitTo;
  termsDays: number;
  pdfFileId: string | null;
  reference: string | null;
  scheduledFor: string | null;
  paymentReference: string | null;
  answer: string | null;
  /** When silence approves it, while it waits for the shipper; else null. */
  awaitingSince: string | null;
};

const toRow = (row: Joined, now: string): InvoiceRow => ({
  id: row.id,
  number: row.number,
  loadId: row.load_id,
  loadGuid: row.load_guid,
  tourId: row.tour_id,
  carrierOrganizationId: row.carrier_organization_id,
  shipperOrganizationId: row.shipper_organization_id,
  carrier: row.carrier_name,
  shipper: row.shipper_name,
  status: invoiceStatusAt(row.status as StoredInvoiceStatus, iso(row.due_at), now),
  total: Number(row.total),
  dueAt: iso(row.due_at),
  submittedAt: iso(row.submitted_at),
  paidAt: iso(row.paid_at),
  draftedAt: iso(row.drafted_at)!,
});

const scoped = <Q extends ReturnType<typeof base>>(query: Q, scope: InvoiceScope): Q =>
  (scope.side === 'carrier'
    ? query.where('i.carrier_organization_id', '=', scope.organizationId)
    : scope.side === 'shipper'
      ? query.where('i.shipper_organization_id', '=', scope.organizationId)
      : query) as Q;

/** One page of the reader's invoices; `statuses` as read (an `overdue` filter reads the due date). */
export async function invoicesPage(
  db: Kysely<DB>,
  scope: InvoiceScope,
  page: TablePage,
  statuses: InvoiceStatus[],
  now: string,
): Promise<{ total: number; rows: InvoiceRow[] }> {
  let query = scoped(base(db), scope);
  if (page.pattern)
    query = query.where((eb) =>
      eb.or([
        eb('i.number', 'ilike', page.pattern!),
        eb('i.load_guid', 'ilike', page.pattern!),
        eb('c.name', 'ilike', page.pattern!),
        eb('s.name', 'ilike', page.pattern!),
      ]),
    );
  if (statuses.length > 0) {
    const at = new Date(now);
    const unpaid = ['submitted', 'approved', 'disputed', 'scheduled'];
    query = query.where((eb) =>
      eb.or(
        statuses.map((status) =>
          status === 'overdue'
            ? eb.and([eb('i.status', 'in', unpaid), eb('i.due_at', '<', at)])
            : unpaid.includes(status)
              ? eb.and([
                  eb('i.status', '=', status),
                  eb.or([eb('i.due_at', 'is', null), eb('i.due_at', '>=', at)]),
                ])
              : eb('i.status', '=', status),
        ),
      ),
    );
  }
  const counted = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirst();
  const rows = await query
    .orderBy(sql.raw(page.column), orderDirection(page))
    .orderBy('i.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(counted?.count ?? 0), rows: rows.map((row) => toRow(row, now)) };
}

export async function invoiceById(
  db: Kysely<DB>,
  invoiceId: string,
  now: string,
): Promise<InvoiceDetail | null> {
  const row = await base(db).where('i.id', '=', invoiceId).executeTakeFirst();
  if (!row) return null;
  return {
    ...toRow(row, now),
    stage: row.status as StoredInvoiceStatus,
    lines: json<InvoiceLineState[]>(row.lines),
    remitTo: json<RemitTo>(row.remit_to),
    termsDays: Number(row.terms_days),
    pdfFileId: row.pdf_file_id,
    reference: row.reference,
    scheduledFor: row.scheduled_for,
    paymentReference: row.payment_reference,
    answer: row.answer,
    awaitingSince: iso(row.awaiting_since),
  };
}

/** The invoices of a load (its audit trail reads their streams). */
export async function invoiceIdsOfLoad(db: Kysely<DB>, loadId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('invoices_view')
    .select('id')
    .where('load_id', '=', loadId)
    .execute();
  return rows.map((row) => row.id);
}

/** Submitted invoices the shipper left unanswered since before `since`: silence approves them. */
export async function invoicesAwaitingSince(
  db: Kysely<DB>,
  since: string,
  limit: number,
): Promise<{ id: string }[]> {
  return db
    .selectFrom('invoices_view')
    .select('id')
    .where('status', '=', 'submitted')
    .where('awaiting_since', '<=', new Date(since))
    .orderBy('awaiting_since')
    .limit(limit)
    .execute();
}
