/**
 * The rules of a carrier's invoice (docs/domain.md "Invoices"): drafted once per delivered tour from
 * the accepted proposal's price and the tour's approved (or settled) accessorial claims only; the
 * carrier submits it; the shipper approves it or disputes lines of it, the carrier answers a
 * dispute, the shipper schedules and records the payment, the carrier confirms the receipt or says
 * it did not arrive (which reopens it). Silence approves a submitted invoice after
 * `INVOICE_SILENCE_DAYS`. Overdue is read, never stored: `invoiceStatusAt`.
 */
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type {
  ClaimToBill,
  Invoice,
  InvoiceCommand,
  InvoiceEvent,
  InvoiceLine,
  InvoiceNumberReserved,
  InvoiceStatus,
  OpenedInvoice,
  StoredInvoiceStatus,
} from './invoice.types.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Days after its submission (or the carrier's answer to a dispute) after which silence approves an invoice. */
export const INVOICE_SILENCE_DAYS = 10;
/** The payment terms when the shipper set none: net 30. */
export const DEFAULT_PAYMENT_TERMS_DAYS = 30;
export const INVOICE_NOT_FOUND = 'Invoice not found';

const cents = (value: number) => Math.round(value * 100) / 100;

const CLAIM_NAMES: Record<ClaimToBill['kind'], string> = {
  detention: 'Detention',
  tonu: 'Truck ordered, not used (TONU)',
  layover: 'Layover',
  lumper: 'Lumper reimbursement',
};

/**
 * The lines of an invoice: the line haul at the agreed price, then each approved claim at its
 * amount and each settled claim at its settled amount; claims still open, disputed or answered, and
 * settlements of nothing, are not billed.
 */
export const invoiceLinesOf = (price: number, claims: ClaimToBill[]): InvoiceLine[] => [
  { kind: 'linehaul', description: 'Line haul', amount: cents(price) },
  ...claims.flatMap((claim): InvoiceLine[] => {
    const amount =
      claim.status === 'approved'
        ? claim.amount
        : claim.status === 'settled'
          ? (claim.settledAmount ?? 0)
          : 0;
    if (!(amount > 0)) return [];
    const where = claim.stopIndex === null ? '' : `, stop ${claim.stopIndex + 1}`;
    return [
      {
        kind: claim.kind,
        claimId: claim.claimId,
        description: `${CLAIM_NAMES[claim.kind]}${where}`,
        amount: cents(amount),
      },
    ];
  }),
];

export const totalOf = (lines: { amount: number }[]) =>
  cents(lines.reduce((sum, line) => sum + line.amount, 0));

/** `submittedAt` plus the net days of the terms. */
export const dueAtOf = (submittedAt: string, termsDays: number): string =>
  new Date(Date.parse(submittedAt) + termsDays * DAY).toISOString();

/** When silence approves an invoice the shipper owes an answer since `awaitingSince`. */
export const silenceDueAt = (awaitingSince: string): string =>
  new Date(Date.parse(awaitingSince) + INVOICE_SILENCE_DAYS * DAY).toISOString();

const UNPAID: StoredInvoiceStatus[] = ['submitted', 'approved', 'disputed', 'scheduled'];
/** The status as read at `now`: an unpaid submitted invoice past its due date reads `overdue`. */
export const invoiceStatusAt = (
  status: StoredInvoiceStatus,
  dueAt: string | null,
  now: string,
): InvoiceStatus =>
  UNPAID.includes(status) && dueAt !== null && Date.parse(now) > Date.parse(dueAt)
    ? 'overdue'
    : status;

/** The next number of a carrier from its reserved numbers: `INV-000001`, … */
export const invoiceNumber = (sequence: number) => `INV-${String(sequence).padStart(6, '0')}`;

/** A carrier's reserved numbers, folded from `invoicenumbers-<id>`. */
export type InvoiceNumbers = { count: number; byInvoice: Record<string, string> };
export const invoiceNumbersDecider: Decider<
  InvoiceNumbers,
  {
    type: 'ReserveInvoiceNumber';
    data: { carrierOrganizationId: string; invoiceId: string; now: string };
  },
  InvoiceNumberReserved
> = {
  initialState: () => ({ count: 0, byInvoice: {} }),
  evolve: (state, event) => ({
    count: state.count + 1,
    byInvoice: { ...state.byInvoice, [event.data.invoiceId]: event.data.number },
  }),
  decide: ({ data }, state) =>
    state.byInvoice[data.invoiceId]
      ? []
      : [
          {
            type: 'InvoiceNumberReserved',
            data: {
              carrierOrganizationId: data.carrierOrganizationId,
              invoiceId: data.invoiceId,
              number: invoiceNumber(state.count + 1),
              reservedAt: data.now,
            },
          },
        ],
};

const evolve = (state: Invoice, event: InvoiceEvent): Invoice => {
  if (event.type === 'InvoiceDrafted') {
    const d = event.data;
    return {
      exists: true,
      invoiceId: d.invoiceId,
      number: d.number,
      loadId: d.loadId,
      loadGuid: d.loadGuid,
      tourId: d.tourId,
      carrierOrganizationId: d.carrierOrganizationId,
      shipperOrganizationId: d.shipperOrganizationId,
      termsDays: d.termsDays,
      lines: d.lines.map((line) => ({ ...line, status: 'open', reason: null })),
      total: d.total,
      remitTo: d.remitTo,
      status: 'draft',
      reference: null,
      draftedAt: d.draftedAt,
      submittedAt: null,
      dueAt: null,
      pdfFileId: null,
      awaitingSince: null,
      scheduledFor: null,
      paidAt: null,
      paymentReference: null,
      answer: null,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'InvoiceSubmitted':
      return {
        ...state,
        status: 'submitted',
        reference: event.data.reference,
        submittedAt: event.data.submittedAt,
        dueAt: event.data.dueAt,
        pdfFileId: event.data.pdfFileId,
        awaitingSince: event.data.submittedAt,
      };
    case 'InvoiceApproved':
      return {
        ...state,
        status: 'approved',
        awaitingSince: null,
        lines: state.lines.map((line) => ({ ...line, status: 'open', reason: null })),
      };
    case 'InvoiceDisputed': {
      const reasons = new Map(event.data.lines.map((line) => [line.index, line.reason]));
      return {
        ...state,
        status: 'disputed',
        awaitingSince: null,
        lines: state.lines.map((line, index) =>
          reasons.has(index)
            ? { ...line, status: 'disputed', reason: reasons.get(index)! }
            : { ...line, status: 'open', reason: null },
        ),
      };
    }
    case 'InvoiceDisputeAnswered':
      return {
        ...state,
        status: 'submitted',
        answer: event.data.text,
        awaitingSince: event.data.answeredAt,
      };
    case 'InvoiceScheduled':
      return { ...state, status: 'scheduled', scheduledFor: event.data.date };
    case 'InvoicePaid':
      return {
        ...state,
        status: 'paid',
        paidAt: event.data.paidAt,
        paymentReference: event.data.reference,
      };
    case 'InvoiceReceiptConfirmed':
      return { ...state, status: 'received' };
    case 'InvoiceReceiptDenied':
      return { ...state, status: 'approved', paidAt: null, paymentReference: null };
    default:
      return assertNever(event);
  }
};

const opened = (state: Invoice): OpenedInvoice => {
  if (!state.exists) throw new NotFoundError(INVOICE_NOT_FOUND);
  return state;
};

const refuse = (invoice: OpenedInvoice, what: string) =>
  new IllegalStateError(`An invoice that is ${invoice.status} cannot be ${what}`);

const parties = (invoice: OpenedInvoice) => ({
  carrierOrganizationId: invoice.carrierOrganizationId,
  shipperOrganizationId: invoice.shipperOrganizationId,
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (iso: string) => iso.slice(0, 10);

const decide = (command: InvoiceCommand, state: Invoice): InvoiceEvent[] => {
  if (command.type === 'DraftInvoice') {
    // Once per tour: a draft asked again (a retry, a second confirmation) adds nothing.
    if (state.exists) return [];
    const d = command.data;
    if (!(d.price > 0)) throw ValidationError.field('price', 'The agreed price is not known');
    const lines = invoiceLinesOf(d.price, d.claims);
    return [
      {
        type: 'InvoiceDrafted',
        data: {
          invoiceId: d.invoiceId,
          number: d.number,
          loadId: d.loadId,
          loadGuid: d.loadGuid,
          tourId: d.tourId,
          carrierOrganizationId: d.carrierOrganizationId,
          shipperOrganizationId: d.shipperOrganizationId,
          termsDays: d.termsDays,
          lines,
          total: totalOf(lines),
          remitTo: d.remitTo,
          draftedAt: d.now,
        },
      },
    ];
  }
  const invoice = opened(state);
  switch (command.type) {
    case 'SubmitInvoice': {
      const d = command.data;
      if (invoice.status !== 'draft') throw refuse(invoice, 'submitted again');
      return [
        {
          type: 'InvoiceSubmitted',
          data: {
            invoiceId: invoice.invoiceId,
            reference: d.reference?.trim() || null,
            submittedBy: d.userId,
            submittedAt: d.now,
            dueAt: dueAtOf(d.now, invoice.termsDays),
            total: invoice.total,
            pdfFileId: d.pdfFileId,
            pdfSha256: d.pdfSha256,
            ...parties(invoice),
          },
        },
      ];
    }
    case 'ApproveInvoice': {
      const d = command.data;
      if (d.bySilence) {
        // The scheduler: only an invoice still waiting for the shipper once the window closed.
        if (
          invoice.status !== 'submitted' ||
          !invoice.awaitingSince ||
          Date.parse(d.now) < Date.parse(silenceDueAt(invoice.awaitingSince))
        )
          return [];
      } else if (invoice.status !== 'submitted' && invoice.status !== 'disputed') {
        throw refuse(invoice, 'approved');
      }
      return [
        {
          type: 'InvoiceApproved',
          data: {
            invoiceId: invoice.invoiceId,
            approvedBy: d.bySilence ? null : d.userId,
            bySilence: d.bySilence,
            approvedAt: d.now,
            ...parties(invoice),
          },
        },
      ];
    }
    case 'DisputeInvoice': {
      const d = command.data;
      if (invoice.status !== 'submitted') throw refuse(invoice, 'disputed');
      if (d.lines.length === 0)
        throw ValidationError.field('lines', 'Please name at least one line you dispute');
      const seen = new Set<number>();
      const lines = d.lines.map((line, position) => {
        if (!Number.isInteger(line.index) || line.index < 0 || line.index >= invoice.lines.length)
          throw ValidationError.field(
            `lines.${position}.index`,
            `The invoice has no line ${line.index}`,
          );
        if (seen.has(line.index))
          throw ValidationError.field(
            `lines.${position}.index`,
            `Line ${line.index} is named twice`,
          );
        seen.add(line.index);
        const reason = line.reason.trim();
        if (!reason)
          throw ValidationError.field(
            `lines.${position}.reason`,
            'Please say why you dispute the line',
          );
        return { index: line.index, reason };
      });
      return [
        {
          type: 'InvoiceDisputed',
          data: {
            invoiceId: invoice.invoiceId,
            lines,
            disputedBy: d.userId,
            disputedAt: d.now,
            ...parties(invoice),
          },
        },
      ];
    }
    case 'AnswerInvoiceDispute': {
      const d = command.data;
      if (invoice.status !== 'disputed')
        throw new IllegalStateError(
          `An invoice that is ${invoice.status} has no dispute to answer`,
        );
      const text = d.text.trim();
      if (!text) throw ValidationError.field('text', 'Please write your answer');
      return [
        {
          type: 'InvoiceDisputeAnswered',
          data: {
            invoiceId: invoice.invoiceId,
            text,
            answeredBy: d.userId,
            answeredAt: d.now,
            ...parties(invoice),
          },
        },
      ];
    }
    case 'ScheduleInvoice': {
      const d = command.data;
      if (invoice.status !== 'approved' && invoice.status !== 'scheduled')
        throw refuse(invoice, 'scheduled for payment');
      if (!DATE.test(d.date) || Number.isNaN(Date.parse(`${d.date}T00:00:00Z`)))
        throw ValidationError.field('date', 'Please enter the payment date as YYYY-MM-DD');
      if (d.date < dayOf(d.now))
        throw ValidationError.field('date', 'The payment date cannot be in the past');
      return [
        {
          type: 'InvoiceScheduled',
          data: {
            invoiceId: invoice.invoiceId,
            date: d.date,
            scheduledBy: d.userId,
            scheduledAt: d.now,
            ...parties(invoice),
          },
        },
      ];
    }
    case 'PayInvoice': {
      const d = command.data;
      if (invoice.status !== 'approved' && invoice.status !== 'scheduled')
        throw refuse(invoice, 'paid');
      const reference = d.reference.trim();
      if (!reference)
        throw ValidationError.field('reference', 'Please enter the payment reference');
      const at = Date.parse(d.paidAt);
      if (Number.isNaN(at)) throw ValidationError.field('paidAt', 'Please enter the payment date');
      const paidAt = new Date(at).toISOString();
      if (dayOf(paidAt) > dayOf(d.now))
        throw ValidationError.field('paidAt', 'The payment date cannot be in the future');
      if (invoice.submittedAt && dayOf(paidAt) < dayOf(invoice.submittedAt))
        throw ValidationError.field(
          'paidAt',
          'The payment date cannot be before the invoice was submitted',
        );
      return [
        {
          type: 'InvoicePaid',
          data: {
            invoiceId: invoice.invoiceId,
            reference,
            paidAt,
            amount: invoice.total,
            recordedBy: d.userId,
            recordedAt: d.now,
            ...parties(invoice),
          },
        },
      ];
    }
    case 'ConfirmInvoiceReceipt': {
      const d = command.data;
      if (invoice.status !== 'paid')
        throw new IllegalStateError(
          `An invoice that is ${invoice.status} has no payment to confirm`,
        );
      return [
        d.received
          ? {
              type: 'InvoiceReceiptConfirmed',
              data: {
                invoiceId: invoice.invoiceId,
                confirmedBy: d.userId,
                confirmedAt: d.now,
                ...parties(invoice),
              },
            }
          : {
              type: 'InvoiceReceiptDenied',
              data: {
                invoiceId: invoice.invoiceId,
                deniedBy: d.userId,
                deniedAt: d.now,
                ...parties(invoice),
              },
            },
      ];
    }
    default:
      return assertNever(command);
  }
};

export const invoiceDecider: Decider<Invoice, InvoiceCommand, InvoiceEvent> = {
  initialState: () => ({ exists: false }),
  evolve,
  decide,
};
