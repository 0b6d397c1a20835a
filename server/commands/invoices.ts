/**
 * The commands of carriers' invoices (stream `invoice-<invoiceId>`, numbers in
 * `invoicenumbers-<carrierOrganizationId>`; docs/domain.md "Invoices"): the draft at the shipper's
 * confirmation of the delivery, the carrier's submission with its PDF, each side's answers, and the
 * scheduler's approval by silence. This module is the only writer of both streams.
 */
import type { Kysely } from 'kysely';
import { Role } from '../../domain/catalog.ts';
import { claimDecider } from '../../domain/claims/claim.decide.ts';
import { claimsStream, type ClaimEvent } from '../../domain/claims/claim.types.ts';
import {
  DEFAULT_PAYMENT_TERMS_DAYS,
  dueAtOf,
  INVOICE_NOT_FOUND,
  invoiceDecider,
  invoiceNumbersDecider,
} from '../../domain/invoices/invoice.decide.ts';
import {
  invoiceNumbersStream,
  invoiceStream,
  type Invoice,
  type InvoiceCommand,
  type InvoiceEvent,
  type OpenedInvoice,
  type RemitTo,
} from '../../domain/invoices/invoice.types.ts';
import { uuidV5 } from '../../domain/offers/offer.decide.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { renderInvoice } from '../integrations/pdf/invoice.ts';
import { sha256Hex } from '../integrations/pdf/rateConfirmation.ts';
import type { IdentityCommands } from './identity.ts';
import { isSuperadmin, metadataOf, type Actor, type Caller } from './caller.ts';

const INVOICE_NAMESPACE = '5d2b7c1e-4f3a-4b8e-9a6d-1c0e8f7b3a29';

/** One invoice per tour: the same tour always gives the same invoice id. */
export const invoiceIdFor = (tourId: string) => uuidV5(`invoice:${tourId}`, INVOICE_NAMESPACE);

export type InvoiceSide = 'carrier' | 'shipper';

export function createInvoiceCommands(deps: {
  store: EventStore;
  db: Kysely<DB>;
  identity: Pick<IdentityCommands, 'loadOrganization'>;
  loadTour: (tourId: string) => Promise<OpenedTour | null>;
}) {
  const { store, identity, loadTour } = deps;
  const files = createFileStore(deps.db);

  const readInvoice = async (invoiceId: string): Promise<Invoice> => {
    const { events } = await store.readStream<InvoiceEvent>(invoiceStream(invoiceId));
    return events.reduce(invoiceDecider.evolve, invoiceDecider.initialState());
  };

  const run = (
    invoice: OpenedInvoice,
    command: InvoiceCommand,
    caller: Caller | null,
    now: string,
  ) =>
    handleCommand<Invoice, InvoiceCommand, InvoiceEvent>(
      store,
      invoiceStream(invoice.invoiceId),
      invoiceDecider,
      command,
      metadataOf(caller, now, invoice.loadId),
    );

  /** An invoice its parties and a Superadmin may see; anyone else: not found. */
  const visibleInvoice = async (actor: Actor, invoiceId: string): Promise<OpenedInvoice> => {
    const invoice = await readInvoice(invoiceId);
    if (
      !invoice.exists ||
      !(
        isSuperadmin(actor) ||
        actor.organizationId === invoice.carrierOrganizationId ||
        actor.organizationId === invoice.shipperOrganizationId
      )
    )
      throw new NotFoundError(INVOICE_NOT_FOUND);
    return invoice;
  };

  /** The role a step needs, checked before the invoice is looked up: the same answer for any id. */
  const needRole = (actor: Actor, side: InvoiceSide, message: string) => {
    if (actor.roleId !== (side === 'carrier' ? Role.Carrier : Role.Shipper))
      throw new ForbiddenError(message);
  };

  /** The invoice of the caller's own side (its carrier, or its shipper); else 403 or 404. */
  const ownInvoice = async (
    caller: Caller,
    invoiceId: string,
    side: InvoiceSide,
    message: string,
  ): Promise<OpenedInvoice> => {
    needRole(caller.actor, side, message);
    const invoice = await visibleInvoice(caller.actor, invoiceId);
    const own = side === 'carrier' ? invoice.carrierOrganizationId : invoice.shipperOrganizationId;
    if (caller.actor.organizationId !== own) throw new ForbiddenError(message);
    return invoice;
  };

  /** Where the shipper pays: the carrier's factor when it named one, else the carrier itself. */
  const remitToOf = async (carrierOrganizationId: string): Promise<RemitTo> => {
    const carrier = await identity.loadOrganization(carrierOrganizationId);
    if (carrier?.factor)
      return { name: carrier.factor.name, address: carrier.factor.remitTo, factor: true };
    return { name: carrier?.name ?? '', address: carrier?.contact.address ?? '', factor: false };
  };

  /** The next number of the carrier for this invoice (the same one when asked again). */
  const reserveNumber = async (carrierOrganizationId: string, invoiceId: string, now: string) => {
    const result = await handleCommand(
      store,
      invoiceNumbersStream(carrierOrganizationId),
      invoiceNumbersDecider,
      { type: 'ReserveInvoiceNumber', data: { carrierOrganizationId, invoiceId, now } },
      metadataOf(null, now, carrierOrganizationId),
      5,
    );
    return result.state.byInvoice[invoiceId]!;
  };

  const step = async (
    caller: Caller,
    invoiceId: string,
    side: InvoiceSide,
    message: string,
    command: (invoice: OpenedInvoice) => InvoiceCommand,
    now: string,
  ): Promise<LogPosition | null> => {
    const invoice = await ownInvoice(caller, invoiceId, side, message);
    return (await run(invoice, command(invoice), caller, now)).position;
  };

  return {
    visibleInvoice,
    invoiceIdFor,

    /**
     * The carrier's invoice of a delivered tour, drafted once: the line haul at the tour's agreed
     * price and each approved or settled claim of the tour. Asked again (a retry, the reactor after
     * the route), it adds nothing. Answers the invoice id, or null when the tour is not found.
     */
    async draftForTour(
      tourId: string,
      caller: Caller | null,
      now: string,
    ): Promise<{ invoiceId: string; position: LogPosition | null } | null> {
      const tour = await loadTour(tourId);
      if (!tour) return null;
      const invoiceId = invoiceIdFor(tourId);
      const existing = await readInvoice(invoiceId);
      if (existing.exists) return { invoiceId, position: null };
      const { events } = await store.readStream<ClaimEvent>(claimsStream(tourId));
      const claims = events.reduce(claimDecider.evolve, claimDecider.initialState()).claims;
      const shipper = await identity.loadOrganization(tour.shipperOrganizationId);
      const number = await reserveNumber(tour.carrierOrganizationId, invoiceId, now);
      const result = await handleCommand<Invoice, InvoiceCommand, InvoiceEvent>(
        store,
        invoiceStream(invoiceId),
        invoiceDecider,
        {
          type: 'DraftInvoice',
          data: {
            invoiceId,
            number,
            loadId: tour.loadId,
            loadGuid: tour.loadGuid,
            tourId,
            carrierOrganizationId: tour.carrierOrganizationId,
            shipperOrganizationId: tour.shipperOrganizationId,
            price: tour.price,
            claims: claims.map((claim) => ({
              claimId: claim.claimId,
              kind: claim.kind,
              stopIndex: claim.stopIndex,
              status: claim.status,
              amount: claim.amount,
              settledAmount: claim.settledAmount,
            })),
            termsDays: shipper?.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS,
            remitTo: await remitToOf(tour.carrierOrganizationId),
            now,
          },
        },
        metadataOf(caller, now, tour.loadId),
      );
      return { invoiceId, position: result.position };
    },

    /** The carrier submits its draft: the PDF is made and stored, its SHA-256 goes in the event. */
    async submit(caller: Caller, invoiceId: string, reference: string | null, now: string) {
      const message = 'Only the carrier submits its invoice';
      const invoice = await ownInvoice(caller, invoiceId, 'carrier', message);
      // The rules first, so a refused submission stores no PDF.
      invoiceDecider.decide(
        {
          type: 'SubmitInvoice',
          data: {
            invoiceId,
            userId: caller.actor.userId,
            reference,
            pdfFileId: '',
            pdfSha256: '',
            now,
          },
        },
        invoice,
      );
      const [carrier, shipper] = await Promise.all([
        identity.loadOrganization(invoice.carrierOrganizationId),
        identity.loadOrganization(invoice.shipperOrganizationId),
      ]);
      const bytes = await renderInvoice({
        number: invoice.number,
        loadGuid: invoice.loadGuid,
        loadId: invoice.loadId,
        submittedAt: now,
        dueAt: dueAtOf(now, invoice.termsDays),
        termsDays: invoice.termsDays,
        reference: reference?.trim() || null,
        carrier: { name: carrier?.name ?? '', address: carrier?.contact.address ?? '' },
        shipper: { name: shipper?.name ?? '', address: shipper?.contact.address ?? '' },
        remitTo: invoice.remitTo,
        lines: invoice.lines,
        total: invoice.total,
      });
      const pdfSha256 = sha256Hex(bytes);
      const pdfFileId = await files.save({
        organizationId: invoice.carrierOrganizationId,
        kind: 'invoice',
        mime: 'application/pdf',
        data: Buffer.from(bytes),
        tourId: invoice.tourId,
      });
      try {
        const result = await run(
          invoice,
          {
            type: 'SubmitInvoice',
            data: { invoiceId, userId: caller.actor.userId, reference, pdfFileId, pdfSha256, now },
          },
          caller,
          now,
        );
        return result.position;
      } catch (error) {
        await files.delete(pdfFileId).catch(() => undefined);
        throw error;
      }
    },

    approve: (caller: Caller, invoiceId: string, now: string) =>
      step(
        caller,
        invoiceId,
        'shipper',
        "Only the shipper's dispatcher approves an invoice",
        () => ({
          type: 'ApproveInvoice',
          data: { invoiceId, userId: caller.actor.userId, bySilence: false, now },
        }),
        now,
      ),

    dispute: (
      caller: Caller,
      invoiceId: string,
      lines: { index: number; reason: string }[],
      now: string,
    ) =>
      step(
        caller,
        invoiceId,
        'shipper',
        "Only the shipper's dispatcher disputes an invoice",
        () => ({
          type: 'DisputeInvoice',
          data: { invoiceId, userId: caller.actor.userId, lines, now },
        }),
        now,
      ),

    answer: (caller: Caller, invoiceId: string, text: string, now: string) =>
      step(
        caller,
        invoiceId,
        'carrier',
        'Only the carrier answers a dispute of its invoice',
        () => ({
          type: 'AnswerInvoiceDispute',
          data: { invoiceId, userId: caller.actor.userId, text, now },
        }),
        now,
      ),

    schedule: (caller: Caller, invoiceId: string, date: string, now: string) =>
      step(
        caller,
        invoiceId,
        'shipper',
        "Only the shipper's dispatcher schedules a payment",
        () => ({
          type: 'ScheduleInvoice',
          data: { invoiceId, userId: caller.actor.userId, date, now },
        }),
        now,
      ),

    pay: (
      caller: Caller,
      invoiceId: string,
      payment: { reference: string; paidAt: string },
      now: string,
    ) =>
      step(
        caller,
        invoiceId,
        'shipper',
        "Only the shipper's dispatcher records a payment",
        () => ({
          type: 'PayInvoice',
          data: { invoiceId, userId: caller.actor.userId, ...payment, now },
        }),
        now,
      ),

    receipt: (caller: Caller, invoiceId: string, received: boolean, now: string) =>
      step(
        caller,
        invoiceId,
        'carrier',
        'Only the carrier confirms the receipt of a payment',
        () => ({
          type: 'ConfirmInvoiceReceipt',
          data: { invoiceId, userId: caller.actor.userId, received, now },
        }),
        now,
      ),

    /** Run by the scheduler: approves an invoice the shipper left unanswered past the window. */
    async approveBySilence(invoiceId: string, now: string): Promise<LogPosition | null> {
      const invoice = await readInvoice(invoiceId);
      if (!invoice.exists) return null;
      const result = await run(
        invoice,
        { type: 'ApproveInvoice', data: { invoiceId, userId: null, bySilence: true, now } },
        null,
        now,
      );
      return result.events.length > 0 ? result.position : null;
    },
  };
}
export type InvoiceCommands = ReturnType<typeof createInvoiceCommands>;
