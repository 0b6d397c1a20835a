/**
 * The carrier's invoice for one delivered load (stream `invoice-<invoiceId>`): drafted when the
 * shipper confirms delivery, from the rate confirmation's agreed price and the tour's approved
 * accessorial claims only; the carrier submits it, the shipper approves (or disputes line by line),
 * schedules and records the payment, the carrier confirms receipt (or reports it not received, which
 * reopens it). Overdue is not an event: an invoice is overdue while it is unpaid after `dueAt`.
 * Days-to-pay is measured from `InvoiceSubmitted.submittedAt` to `InvoicePaid.paidAt`.
 */
import type { ClaimKind } from '../claims/claim.types.ts';
import type { Command, Event } from '../shared/event.ts';

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
  } & InvoiceParties
>;
/** `approvedBy` null and `bySilence` true: approved by the passing of time, not by a person. */
export type InvoiceApproved = Event<
  'InvoiceApproved',
  {
    invoiceId: string;
    approvedBy: string | null;
    bySilence: boolean;
    approvedAt: string;
  } & InvoiceParties
>;
export type InvoiceDisputed = Event<
  'InvoiceDisputed',
  {
    invoiceId: string;
    lines: { index: number; reason: string }[];
    disputedBy: string;
    disputedAt: string;
  } & InvoiceParties
>;
export type InvoiceDisputeAnswered = Event<
  'InvoiceDisputeAnswered',
  { invoiceId: string; text: string; answeredBy: string; answeredAt: string } & InvoiceParties
>;
export type InvoiceScheduled = Event<
  'InvoiceScheduled',
  { invoiceId: string; date: string; scheduledBy: string; scheduledAt: string } & InvoiceParties
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
  } & InvoiceParties
>;
export type InvoiceReceiptConfirmed = Event<
  'InvoiceReceiptConfirmed',
  { invoiceId: string; confirmedBy: string; confirmedAt: string } & InvoiceParties
>;
/** The carrier reports the payment not received: the payment no longer counts and the invoice reopens. */
export type InvoiceReceiptDenied = Event<
  'InvoiceReceiptDenied',
  { invoiceId: string; deniedBy: string; deniedAt: string } & InvoiceParties
>;

/**
 * The invoice's two organizations, carried (optionally) by every event after the draft so that a
 * push or a webhook can name both sides without reading the stream.
 */
export type InvoiceParties = { carrierOrganizationId?: string; shipperOrganizationId?: string };

/**
 * An invoice number reserved for a carrier (stream `invoicenumbers-<carrierOrganizationId>`): one
 * event per invoice, numbered from 1 in the stream's order; appended with the stream's revision,
 * so two drafts at once never get the same number.
 */
export const invoiceNumbersStream = (carrierOrganizationId: string): string =>
  `invoicenumbers-${carrierOrganizationId}`;
export type InvoiceNumberReserved = Event<
  'InvoiceNumberReserved',
  { carrierOrganizationId: string; invoiceId: string; number: string; reservedAt: string }
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

/** The stored statuses (`overdue` is read, never stored: `invoiceStatusAt`). */
export type StoredInvoiceStatus = Exclude<InvoiceStatus, 'overdue'>;

/** A line as the invoice holds it, with whether the shipper disputes it (and why). */
export type InvoiceLineState = InvoiceLine & { status: 'open' | 'disputed'; reason: string | null };

export type OpenedInvoice = {
  exists: true;
  invoiceId: string;
  number: string;
  loadId: string;
  loadGuid: string;
  tourId: string;
  carrierOrganizationId: string;
  shipperOrganizationId: string;
  termsDays: number;
  lines: InvoiceLineState[];
  total: number;
  remitTo: RemitTo;
  status: StoredInvoiceStatus;
  reference: string | null;
  draftedAt: string;
  submittedAt: string | null;
  dueAt: string | null;
  pdfFileId: string | null;
  /** Since when the shipper owes an answer (the submission, or the carrier's answer to a dispute). */
  awaitingSince: string | null;
  scheduledFor: string | null;
  paidAt: string | null;
  paymentReference: string | null;
  answer: string | null;
};
export type Invoice = { exists: false } | OpenedInvoice;

/** An accessorial claim of the tour as the draft reads it: only approved or settled ones are billed. */
export type ClaimToBill = {
  claimId: string;
  kind: ClaimKind;
  stopIndex: number | null;
  status: 'claimed' | 'approved' | 'disputed' | 'answered' | 'settled';
  amount: number;
  settledAmount: number | null;
};

export type DraftInvoice = Command<
  'DraftInvoice',
  {
    invoiceId: string;
    number: string;
    loadId: string;
    loadGuid: string;
    tourId: string;
    carrierOrganizationId: string;
    shipperOrganizationId: string;
    /** The accepted proposal's price. */
    price: number;
    claims: ClaimToBill[];
    termsDays: number;
    remitTo: RemitTo;
    now: string;
  }
>;
export type SubmitInvoice = Command<
  'SubmitInvoice',
  {
    invoiceId: string;
    userId: string;
    reference: string | null;
    pdfFileId: string;
    pdfSha256: string;
    now: string;
  }
>;
export type ApproveInvoice = Command<
  'ApproveInvoice',
  { invoiceId: string; userId: string | null; bySilence: boolean; now: string }
>;
export type DisputeInvoice = Command<
  'DisputeInvoice',
  { invoiceId: string; userId: string; lines: { index: number; reason: string }[]; now: string }
>;
export type AnswerInvoiceDispute = Command<
  'AnswerInvoiceDispute',
  { invoiceId: string; userId: string; text: string; now: string }
>;
export type ScheduleInvoice = Command<
  'ScheduleInvoice',
  { invoiceId: string; userId: string; date: string; now: string }
>;
export type PayInvoice = Command<
  'PayInvoice',
  { invoiceId: string; userId: string; reference: string; paidAt: string; now: string }
>;
export type ConfirmInvoiceReceipt = Command<
  'ConfirmInvoiceReceipt',
  { invoiceId: string; userId: string; received: boolean; now: string }
>;
export type InvoiceCommand =
  | DraftInvoice
  | SubmitInvoice
  | ApproveInvoice
  | DisputeInvoice
  | AnswerInvoiceDispute
  | ScheduleInvoice
  | PayInvoice
  | ConfirmInvoiceReceipt;
