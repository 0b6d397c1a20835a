/**
 * Invoice events for specs (stream `invoice-<id>`): one invoice's life from its draft to its
 * submission, payment and the carrier's answer on receipt, naming only what a spec varies.
 */
import {
  invoiceStream,
  type InvoiceDrafted,
  type InvoiceEvent,
  type InvoicePaid,
  type InvoiceReceiptConfirmed,
  type InvoiceReceiptDenied,
  type InvoiceSubmitted,
} from '../../domain/invoices/invoice.types.ts';
import type { SpecEvent } from '../testing.ts';
import { on } from './trade.ts';

const DAY = 86_400_000;
const plus = (at: string, days: number) => new Date(Date.parse(at) + days * DAY).toISOString();

export type InvoiceLife = {
  invoiceId: string;
  carrierOrganizationId: string;
  shipperOrganizationId: string;
  total?: number;
  termsDays?: number;
  /** When the carrier submitted it; absent: a draft. */
  submittedAt?: string;
  /** When the shipper paid it; absent: unpaid. */
  paidAt?: string;
  /** The carrier's answer on the payment. */
  receipt?: 'confirmed' | 'denied';
};

/** The events of one invoice, in order. */
export function invoiceLife(life: InvoiceLife): (InvoiceEvent & SpecEvent)[] {
  const total = life.total ?? 1000;
  const termsDays = life.termsDays ?? 30;
  const stream = invoiceStream(life.invoiceId);
  const draftedAt = life.submittedAt ? plus(life.submittedAt, -1) : '2026-11-01T10:00:00.000Z';
  const events: (InvoiceEvent & SpecEvent)[] = [
    on<InvoiceDrafted>(stream, {
      type: 'InvoiceDrafted',
      data: {
        invoiceId: life.invoiceId,
        number: `INV-${life.invoiceId.slice(-6)}`,
        loadId: '00000000-0000-4000-8000-00000000aaaa',
        loadGuid: 'LD-1',
        tourId: '00000000-0000-4000-8000-00000000bbbb',
        carrierOrganizationId: life.carrierOrganizationId,
        shipperOrganizationId: life.shipperOrganizationId,
        termsDays,
        lines: [{ kind: 'linehaul', description: 'Line haul', amount: total }],
        total,
        remitTo: { name: 'Carrier', address: '1 Main St', factor: false },
        draftedAt,
      },
    }),
  ];
  if (!life.submittedAt) return events;
  events.push(
    on<InvoiceSubmitted>(stream, {
      type: 'InvoiceSubmitted',
      data: {
        invoiceId: life.invoiceId,
        reference: null,
        submittedBy: '00000000-0000-4000-8000-00000000cccc',
        submittedAt: life.submittedAt,
        dueAt: plus(life.submittedAt, termsDays),
        total,
        pdfFileId: '00000000-0000-4000-8000-00000000dddd',
        pdfSha256: '0'.repeat(64),
      },
    }),
  );
  if (!life.paidAt) return events;
  events.push(
    on<InvoicePaid>(stream, {
      type: 'InvoicePaid',
      data: {
        invoiceId: life.invoiceId,
        reference: 'ACH-1',
        paidAt: life.paidAt,
        amount: total,
        recordedBy: '00000000-0000-4000-8000-00000000eeee',
        recordedAt: life.paidAt,
      },
    }),
  );
  if (life.receipt === 'confirmed')
    events.push(
      on<InvoiceReceiptConfirmed>(stream, {
        type: 'InvoiceReceiptConfirmed',
        data: {
          invoiceId: life.invoiceId,
          confirmedBy: '00000000-0000-4000-8000-00000000cccc',
          confirmedAt: plus(life.paidAt, 1),
        },
      }),
    );
  if (life.receipt === 'denied')
    events.push(
      on<InvoiceReceiptDenied>(stream, {
        type: 'InvoiceReceiptDenied',
        data: {
          invoiceId: life.invoiceId,
          deniedBy: '00000000-0000-4000-8000-00000000cccc',
          deniedAt: plus(life.paidAt, 1),
        },
      }),
    );
  return events;
}
