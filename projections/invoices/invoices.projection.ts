import type { Insertable, Transaction } from 'kysely';
import { invoiceDecider } from '../../domain/invoices/invoice.decide.ts';
import type {
  InvoiceEvent,
  InvoiceLineState,
  OpenedInvoice,
  RemitTo,
  StoredInvoiceStatus,
} from '../../domain/invoices/invoice.types.ts';
import type { DB } from '../../storage/schema.ts';
import { defineProjection } from '../projection.ts';
import type { InvoicesViewTable } from './invoices.tables.ts';

const iso = (value: Date | string | null): string | null =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

type Row = { [K in keyof InvoicesViewTable]: unknown };

/** The invoice a row holds, as the decider's own evolve folds it. */
const stateOf = (row: Row): OpenedInvoice => ({
  exists: true,
  invoiceId: row.id as string,
  number: row.number as string,
  loadId: row.load_id as string,
  loadGuid: row.load_guid as string,
  tourId: row.tour_id as string,
  carrierOrganizationId: row.carrier_organization_id as string,
  shipperOrganizationId: row.shipper_organization_id as string,
  termsDays: Number(row.terms_days),
  lines: json<InvoiceLineState[]>(row.lines),
  total: Number(row.total),
  remitTo: json<RemitTo>(row.remit_to),
  status: row.status as StoredInvoiceStatus,
  reference: row.reference as string | null,
  draftedAt: iso(row.drafted_at as Date)!,
  submittedAt: iso(row.submitted_at as Date | null),
  dueAt: iso(row.due_at as Date | null),
  pdfFileId: row.pdf_file_id as string | null,
  awaitingSince: iso(row.awaiting_since as Date | null),
  scheduledFor: row.scheduled_for as string | null,
  paidAt: iso(row.paid_at as Date | null),
  paymentReference: row.payment_reference as string | null,
  answer: row.answer as string | null,
});

const rowOf = (invoice: OpenedInvoice, updatedAt: string): Insertable<InvoicesViewTable> => ({
  id: invoice.invoiceId,
  number: invoice.number,
  load_id: invoice.loadId,
  load_guid: invoice.loadGuid,
  tour_id: invoice.tourId,
  carrier_organization_id: invoice.carrierOrganizationId,
  shipper_organization_id: invoice.shipperOrganizationId,
  status: invoice.status,
  total: invoice.total,
  terms_days: invoice.termsDays,
  lines: JSON.stringify(invoice.lines),
  remit_to: JSON.stringify(invoice.remitTo),
  reference: invoice.reference,
  pdf_file_id: invoice.pdfFileId,
  answer: invoice.answer,
  drafted_at: invoice.draftedAt,
  submitted_at: invoice.submittedAt,
  due_at: invoice.dueAt,
  awaiting_since: invoice.awaitingSince,
  scheduled_for: invoice.scheduledFor,
  paid_at: invoice.paidAt,
  payment_reference: invoice.paymentReference,
  updated_at: updatedAt,
});

const INVOICE_EVENTS = [
  'InvoiceDrafted',
  'InvoiceSubmitted',
  'InvoiceApproved',
  'InvoiceDisputed',
  'InvoiceDisputeAnswered',
  'InvoiceScheduled',
  'InvoicePaid',
  'InvoiceReceiptConfirmed',
  'InvoiceReceiptDenied',
] as const;

/** When a step happened, as its event says. */
const atOf = (event: InvoiceEvent): string => {
  switch (event.type) {
    case 'InvoiceDrafted':
      return event.data.draftedAt;
    case 'InvoiceSubmitted':
      return event.data.submittedAt;
    case 'InvoiceApproved':
      return event.data.approvedAt;
    case 'InvoiceDisputed':
      return event.data.disputedAt;
    case 'InvoiceDisputeAnswered':
      return event.data.answeredAt;
    case 'InvoiceScheduled':
      return event.data.scheduledAt;
    case 'InvoicePaid':
      return event.data.recordedAt;
    case 'InvoiceReceiptConfirmed':
      return event.data.confirmedAt;
    case 'InvoiceReceiptDenied':
      return event.data.deniedAt;
  }
};

async function load(trx: Transaction<DB>, id: string): Promise<OpenedInvoice | null> {
  const row = await trx
    .selectFrom('invoices_view')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? stateOf(row) : null;
}

/**
 * The carriers' invoices (docs/domain.md "Invoices"): one row per invoice, folded with the
 * invoice decider's own evolve, so the row always says what the stream says; what GET invoices
 * pages, and where the silence reactor finds the invoices waiting too long for the shipper.
 */
export const invoicesProjection = defineProjection({
  name: 'invoices',
  version: 1,
  tables: ['invoices_view'],
  handles: [...INVOICE_EVENTS],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as InvoiceEvent;
      const id = event.data.invoiceId;
      const before = await load(trx, id);
      if (event.type === 'InvoiceDrafted' && before) continue;
      if (event.type !== 'InvoiceDrafted' && !before) continue;
      const after = invoiceDecider.evolve(before ?? { exists: false }, event);
      if (!after.exists) continue;
      const row = rowOf(after, atOf(event));
      if (before) await trx.updateTable('invoices_view').set(row).where('id', '=', id).execute();
      else await trx.insertInto('invoices_view').values(row).execute();
    }
  },
});
