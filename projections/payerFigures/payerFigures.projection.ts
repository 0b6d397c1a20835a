import { sql } from 'kysely';
import type {
  InvoiceDrafted,
  InvoicePaid,
  InvoiceReceiptConfirmed,
  InvoiceReceiptDenied,
  InvoiceSubmitted,
} from '../../domain/invoices/invoice.types.ts';
import { defineProjection } from '../projection.ts';

type Handled =
  | InvoiceDrafted
  | InvoiceSubmitted
  | InvoicePaid
  | InvoiceReceiptConfirmed
  | InvoiceReceiptDenied;

/**
 * Days-to-pay and aging (docs/domain.md "Days-to-pay and aging"): from the invoice events alone,
 * each invoice's carrier, shipper, total, submission, due date and payment. A payment counts from
 * `InvoicePaid` (its `paidAt`, the bank's date) until the carrier reports it not received, which
 * makes the invoice unpaid again; a later payment counts anew. Whole days to pay are computed here as
 * in `daysToPay`, so the marketplace's filter can compare medians in SQL.
 */
export const payerFiguresProjection = defineProjection({
  name: 'payerFigures',
  version: 1,
  tables: ['payer_invoices_view'],
  handles: [
    'InvoiceDrafted',
    'InvoiceSubmitted',
    'InvoicePaid',
    'InvoiceReceiptConfirmed',
    'InvoiceReceiptDenied',
  ],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      switch (event.type) {
        case 'InvoiceDrafted': {
          const d = event.data;
          await sql`INSERT INTO payer_invoices_view (invoice_id, carrier_organization_id, shipper_organization_id,
              total, terms_days, status)
            VALUES (${d.invoiceId}, ${d.carrierOrganizationId}, ${d.shipperOrganizationId}, ${d.total}::float8,
              ${d.termsDays}::integer, 'draft')
            ON CONFLICT (invoice_id) DO NOTHING`.execute(trx);
          break;
        }
        case 'InvoiceSubmitted': {
          const d = event.data;
          await sql`UPDATE payer_invoices_view SET submitted_at = ${d.submittedAt}::timestamptz,
              due_at = ${d.dueAt}::timestamptz, total = ${d.total}::float8,
              status = CASE WHEN status = 'draft' THEN 'submitted' ELSE status END
            WHERE invoice_id = ${d.invoiceId}`.execute(trx);
          break;
        }
        case 'InvoicePaid': {
          const d = event.data;
          const paidAt = sql`${d.paidAt}::timestamptz`;
          await sql`UPDATE payer_invoices_view SET paid_at = ${paidAt}, status = 'paid',
              days_to_pay = CASE WHEN submitted_at IS NULL THEN NULL ELSE
                greatest(0, floor(extract(epoch FROM ${paidAt} - submitted_at)::numeric / 86400 + 0.5))::integer END
            WHERE invoice_id = ${d.invoiceId}`.execute(trx);
          break;
        }
        case 'InvoiceReceiptConfirmed': {
          await sql`UPDATE payer_invoices_view SET status = 'received'
            WHERE invoice_id = ${event.data.invoiceId} AND paid_at IS NOT NULL`.execute(trx);
          break;
        }
        case 'InvoiceReceiptDenied': {
          await sql`UPDATE payer_invoices_view SET paid_at = NULL, days_to_pay = NULL,
              status = CASE WHEN submitted_at IS NULL THEN 'draft' ELSE 'submitted' END
            WHERE invoice_id = ${event.data.invoiceId}`.execute(trx);
          break;
        }
      }
    }
  },
});
