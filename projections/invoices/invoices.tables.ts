import type { InvoiceLineState, RemitTo } from '../../domain/invoices/invoice.types.ts';
import type { Json, NullableTimestamp, Timestamp } from '../../storage/columns.ts';

/** `invoices_view` (migration 2026_11_29_1700_invoices): the carriers' invoices. */
export type InvoicesViewTable = {
  id: string;
  number: string;
  load_id: string;
  load_guid: string;
  tour_id: string;
  carrier_organization_id: string;
  shipper_organization_id: string;
  status: string;
  total: number;
  terms_days: number;
  lines: Json<InvoiceLineState[]>;
  remit_to: Json<RemitTo>;
  reference: string | null;
  pdf_file_id: string | null;
  answer: string | null;
  drafted_at: Timestamp;
  submitted_at: NullableTimestamp;
  due_at: NullableTimestamp;
  awaiting_since: NullableTimestamp;
  scheduled_for: string | null;
  paid_at: NullableTimestamp;
  payment_reference: string | null;
  updated_at: Timestamp;
};

export type InvoicesTables = { invoices_view: InvoicesViewTable };
