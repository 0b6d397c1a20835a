import type { PayerInvoiceStatus } from '../../domain/invoices/payerFigures.ts';
import type { NullableTimestamp } from '../../storage/columns.ts';

/** `payer_invoices_view` (migration 2026_11_29_1800_payer_invoices): an invoice as days-to-pay and aging need it. */
export type PayerInvoicesViewTable = {
  invoice_id: string;
  carrier_organization_id: string;
  shipper_organization_id: string;
  total: number;
  terms_days: number;
  /** Null while a draft. */
  submitted_at: NullableTimestamp;
  /** submitted_at plus the terms' days; null while a draft. */
  due_at: NullableTimestamp;
  /** When the shipper paid; null while unpaid and again after the carrier denied the receipt. */
  paid_at: NullableTimestamp;
  /** Whole days from submission to payment (`daysToPay`); null while unpaid. */
  days_to_pay: number | null;
  status: PayerInvoiceStatus;
};

export type PayerFiguresTables = { payer_invoices_view: PayerInvoicesViewTable };
