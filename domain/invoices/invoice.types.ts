/**
 * The carrier's invoice for one delivered load (stream `invoice-<invoiceId>`): drafted when the
 * shipper confirms delivery, from the rate confirmation's agreed price and the tour's approved
 * accessorial claims only; the carrier submits it, the shipper approves (or disputes line by line),
 * schedules and records the payment, the carrier confirms receipt (or reports it not received, which
 * reopens it). Overdue is not an event: an invoice is overdue while it is unpaid after `dueAt`.
 * Days-to-pay is measured from `InvoiceSubmitted.submittedAt` to `InvoicePaid.paidAt`.
 */
import type { ClaimKind } from '../claims/claim.types.ts';
import type { Event } from '../shared/event.ts';

export const invoiceStream = (invoiceId: string): string => `invoice-${invoiceId}`;

export type InvoiceStatus =
  | 'draft'
  | 'submitted'
  | 'approved'
  | 'disputed'
  | 'scheduled'
  | 'paid'
  | 'received'
  | 'overdue';

export type InvoiceLineKind = 'linehaul' | ClaimKind;

export type InvoiceLine = {
  kind: InvoiceLineKind;
  /** The approved accessorial claim a line bills; absent on the line haul. */
  claimId?: string;
  description: string;
  amount: number;
};

/** Where the shipper pays: the carrier itself, or its factor after a notice of assignment. */
export type RemitTo = { name: string; address: string; factor: boolean };

export type InvoiceDrafted = Event<
  'InvoiceDrafted',
  {
    invoiceId: string;
    /** Numbered per carrier organization: `INV-000001`, … */
    number: string;
    loadId: string;
    loadGuid: string;
    tourId: string;
    carrierOrganizationId: string;
    shipperOrganizationId: string;
    /** The shipper's payment terms, net days, as printed on the rate confirmation. */
    termsDays: number;
    lines: InvoiceLine[];
    total: number;
    remitTo: RemitTo;
    draftedAt: string;
  }
>;
export type InvoiceSubmitted = Event<
  'InvoiceSubmitted',
  {
    invoiceId: string;
    /** The carrier's own reference (its accounting number); never an amount. */
    reference: string | null;
    submittedBy: string;
    submittedAt: string;
    /** submittedAt plus the terms' net days. */
    dueAt: string;
    total: number;
    pdfFileId: string;
    pdfSha256: string;
  }
>;
/** `approvedBy` null and `bySilence` true: approved by the passing of time, not by a person. */
export type InvoiceApproved = Event<
  'InvoiceApproved',
  { invoiceId: string; approvedBy: string | null; bySilence: boolean; approvedAt: string }
>;
export type InvoiceDisputed = Event<
  'InvoiceDisputed',
  {
    invoiceId: string;
    lines: { index: number; reason: string }[];
    disputedBy: string;
    disputedAt: string;
  }
>;
export type InvoiceDisputeAnswered = Event<
  'InvoiceDisputeAnswered',
  { invoiceId: string; text: string; answeredBy: string; answeredAt: string }
>;
export type InvoiceScheduled = Event<
  'InvoiceScheduled',
  { invoiceId: string; date: string; scheduledBy: string; scheduledAt: string }
>;
export type InvoicePaid = Event<
  'InvoicePaid',
  {
    invoiceId: string;
    reference: string;
    /** When the shipper paid (its bank's date), not when it was recorded. */
    paidAt: string;
    amount: number;
    recordedBy: string;
    recordedAt: string;
  }
>;
export type InvoiceReceiptConfirmed = Event<
  'InvoiceReceiptConfirmed',
  { invoiceId: string; confirmedBy: string; confirmedAt: string }
>;
/** The carrier reports the payment not received: the payment no longer counts and the invoice reopens. */
export type InvoiceReceiptDenied = Event<
  'InvoiceReceiptDenied',
  { invoiceId: string; deniedBy: string; deniedAt: string }
>;

export type InvoiceEvent =
  | InvoiceDrafted
  | InvoiceSubmitted
  | InvoiceApproved
  | InvoiceDisputed
  | InvoiceDisputeAnswered
  | InvoiceScheduled
  | InvoicePaid
  | InvoiceReceiptConfirmed
  | InvoiceReceiptDenied;
