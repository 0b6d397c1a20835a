/**
 * The reactor that tells a partner what became of its tenders (reactor `edi`, checkpointed, one
 * process at a time): a 990 when the load is booked (A) or canceled or expired on our side (D); a
 * 214 as the tour moves (X3 arrived at a pickup, AF departed a pickup, X1 arrived at a delivery, D1
 * delivered); a 210 when the carrier submits its invoice. Only loads that came from a tender are
 * concerned (`edi_tenders`). The documents are written with the checkpoint, and at most once per
 * event (a unique index on the event's id): a page delivered again sends nothing twice.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { LocationType, TourStatus } from '../../domain/catalog.ts';
import type {
  InvoiceDrafted,
  InvoiceEvent,
  InvoiceSubmitted,
} from '../../domain/invoices/invoice.types.ts';
import { invoiceStream } from '../../domain/invoices/invoice.types.ts';
import type {
  LoadCanceled,
  LoadExpired,
  LoadProposalAccepted,
} from '../../domain/loads/load.types.ts';
import type {
  TourEventAdded,
  TourOpened,
  TourStatusChanged,
  TourStop,
} from '../../domain/tours/tour.events.ts';
import type { DB } from '../../storage/schema.ts';
import type { ReactorDefinition } from '../../storage/reactor.ts';
import type { EventStore, RecordedEvent } from '../eventstore/eventStore.ts';
import type { OutgoingQueue } from './inbound.ts';
import {
  freightInvoice210,
  scacOf,
  shipmentStatus214,
  tenderResponse990,
  type ShipmentStatusCode,
} from './outbound.ts';
import { separatorsOf, type PartnerRow, type Partners } from './partners.ts';
import { writeInterchange, type OutgoingTransaction } from './x12.ts';

export const EDI_REACTOR = { name: 'edi' };

/** GS01 of each set we send: 990 GF, 214 QM, 210 IM. */
const FUNCTIONAL_IDS: Record<string, string> = { '990': 'GF', '214': 'QM', '210': 'IM' };

const HANDLED = [
  'LoadProposalAccepted',
  'LoadCanceled',
  'LoadExpired',
  'TourEventAdded',
  'TourStatusChanged',
  'InvoiceSubmitted',
] as const;

type Tendered = {
  partner_id: string;
  shipment_id: string;
  load_id: string;
  tour_id: string | null;
  status: string;
};

export function ediReactor(deps: {
  db: Kysely<DB>;
  store: EventStore;
  partners: Partners;
  outgoing: OutgoingQueue;
  ourId: string;
  logger: Pick<Logger, 'warn'>;
  /** An organization's name, for the 210's parties. */
  organizationName(organizationId: string): Promise<string>;
  /** Called once documents were queued (the sender looks for them). */
  queued(): void;
}): ReactorDefinition {
  const { store, partners, outgoing, ourId, db } = deps;
  const scac = scacOf(ourId);

  /**
   * What one event sends: the tender it answers, the set to write, and the tender's new state. Read
   * before the page's transaction (on PGlite the one connection is the transaction's while it runs).
   */
  type Plan = {
    tender: Tendered;
    partner: PartnerRow;
    event: RecordedEvent;
    set: OutgoingTransaction;
    update?: { tour_id?: string; status: string };
  };

  /** The tenders this page has already changed (a booking then its tour's first events, in one page). */
  type Known = { byLoad: Map<string, Tendered>; byTour: Map<string, Tendered> };
  const tenderOfLoad = async (known: Known, loadId: string) =>
    known.byLoad.get(loadId) ??
    (await db
      .selectFrom('edi_tenders')
      .selectAll()
      .where('load_id', '=', loadId)
      .executeTakeFirst());
  const tenderOfTour = async (known: Known, tourId: string) =>
    known.byTour.get(tourId) ??
    (await db
      .selectFrom('edi_tenders')
      .selectAll()
      .where('tour_id', '=', tourId)
      .executeTakeFirst());

  const guidOf = async (loadId: string): Promise<string> => {
    const { events } = await store.readStream(`load-${loadId}`);
    const posted = events.find((event) => event.type === 'LoadPosted');
    return (posted?.data as { guid?: string } | undefined)?.guid ?? loadId;
  };
  const stopsOf = async (tourId: string): Promise<TourStop[]> => {
    const { events } = await store.readStream(`tour-${tourId}`);
    const opened = events.find((event) => event.type === 'TourOpened') as
      | RecordedEvent<TourOpened>
      | undefined;
    return opened?.data.stops ?? [];
  };

  const planFor = async (
    tender: Tendered | undefined,
    event: RecordedEvent,
    build: (partner: PartnerRow) => OutgoingTransaction,
    update?: Plan['update'],
  ): Promise<Plan | null> => {
    if (!tender) return null;
    const partner = await partners.byId(tender.partner_id);
    if (!partner) return null;
    return { tender, partner, event, set: build(partner), ...(update ? { update } : {}) };
  };

  const status214 = async (
    tender: Tendered,
    event: RecordedEvent,
    code: ShipmentStatusCode,
    stop: TourStop | undefined,
    index: number,
  ) => {
    const loadGuid = await guidOf(tender.load_id);
    return planFor(tender, event, (partner) =>
      shipmentStatus214({
        scac,
        shipmentId: tender.shipment_id,
        loadGuid,
        status: code,
        at: new Date(atOf(event)),
        stop: { sequence: index + 1, city: stop?.city ?? null, state: stop?.state ?? null },
        separators: separatorsOf(partner),
      }),
    );
  };

  const planOf = async (known: Known, event: RecordedEvent): Promise<Plan | null> => {
    switch (event.type) {
      case 'LoadProposalAccepted': {
        const { data } = event as unknown as RecordedEvent<LoadProposalAccepted>;
        const tender = await tenderOfLoad(known, data.loadId);
        if (!tender) return null;
        const booked = { ...tender, tour_id: data.tourId, status: 'booked' };
        known.byLoad.set(data.loadId, booked);
        known.byTour.set(data.tourId, booked);
        const loadGuid = await guidOf(data.loadId);
        return planFor(
          tender,
          event,
          (partner) =>
            tenderResponse990({
              scac,
              shipmentId: tender.shipment_id,
              loadGuid,
              accepted: true,
              at: new Date(data.acceptedAt),
              separators: separatorsOf(partner),
            }),
          { tour_id: data.tourId, status: 'booked' },
        );
      }
      case 'LoadCanceled':
      case 'LoadExpired': {
        const { data } = event as unknown as RecordedEvent<LoadCanceled | LoadExpired>;
        const tender = await tenderOfLoad(known, data.loadId);
        // The partner's own cancellation (a 204 with B2A 01) needs no answer.
        if (!tender || tender.status === 'canceled') return null;
        known.byLoad.set(data.loadId, { ...tender, status: 'declined' });
        const loadGuid = await guidOf(data.loadId);
        const reason =
          event.type === 'LoadCanceled' ? (data as LoadCanceled['data']).message : 'Expired';
        return planFor(
          tender,
          event,
          (partner) =>
            tenderResponse990({
              scac,
              shipmentId: tender.shipment_id,
              loadGuid,
              accepted: false,
              reason,
              at: new Date(atOf(event)),
              separators: separatorsOf(partner),
            }),
          { status: 'declined' },
        );
      }
      case 'TourEventAdded': {
        const { data } = event as unknown as RecordedEvent<TourEventAdded>;
        if ((data.type !== 'arrived' && data.type !== 'departed') || !data.stopId) return null;
        const tender = await tenderOfTour(known, data.tourId);
        if (!tender) return null;
        const stops = await stopsOf(data.tourId);
        const index = stops.findIndex((stop) => stop.id === data.stopId);
        const stop = stops[index];
        if (!stop) return null;
        const pickup =
          stop.locationType === LocationType.Pickup ||
          stop.locationType === LocationType.ExtraPickupStop;
        // Leaving a delivery is no status of its own: D1 comes with the delivery.
        if (!pickup && data.type === 'departed') return null;
        const code: ShipmentStatusCode = pickup ? (data.type === 'arrived' ? 'X3' : 'AF') : 'X1';
        return status214(tender, event, code, stop, index);
      }
      case 'TourStatusChanged': {
        const { data } = event as unknown as RecordedEvent<TourStatusChanged>;
        if (data.to !== TourStatus.Delivered) return null;
        const tender = await tenderOfTour(known, data.tourId);
        if (!tender) return null;
        const stops = await stopsOf(data.tourId);
        return status214(tender, event, 'D1', stops[stops.length - 1], stops.length - 1);
      }
      case 'InvoiceSubmitted': {
        const { data } = event as unknown as RecordedEvent<InvoiceSubmitted>;
        const { events } = await store.readStream<InvoiceEvent>(invoiceStream(data.invoiceId));
        const drafted = events.find((each) => each.type === 'InvoiceDrafted') as
          | RecordedEvent<InvoiceDrafted>
          | undefined;
        if (!drafted) return null;
        const tender = await tenderOfLoad(known, drafted.data.loadId);
        if (!tender) return null;
        const [carrierName, shipperName] = await Promise.all([
          deps.organizationName(drafted.data.carrierOrganizationId),
          deps.organizationName(drafted.data.shipperOrganizationId),
        ]);
        return planFor(tender, event, (partner) =>
          freightInvoice210({
            scac,
            separators: separatorsOf(partner),
            invoice: {
              number: drafted.data.number,
              loadGuid: drafted.data.loadGuid,
              shipmentId: tender.shipment_id,
              submittedAt: data.submittedAt,
              dueAt: data.dueAt,
              total: data.total,
              lines: drafted.data.lines,
              carrierName,
              shipperName,
              reference: data.reference,
            },
          }),
        );
      }
      default:
        return null;
    }
  };

  /** Writes one planned document, with its control number, inside the page's transaction. */
  const write = async (trx: Kysely<DB>, plan: Plan) => {
    const { partner, tender, event, set } = plan;
    if (plan.update)
      await trx
        .updateTable('edi_tenders')
        .set(plan.update)
        .where('load_id', '=', tender.load_id)
        .execute();
    const controlNumber = await partners.nextControlNumber(trx, partner.id);
    const raw = writeInterchange({
      ourId,
      partner: { isaQualifier: partner.isa_qualifier, isaId: partner.isa_id, gsId: partner.gs_id },
      separators: separatorsOf(partner),
      functionalId: FUNCTIONAL_IDS[set.type] ?? 'GF',
      controlNumber,
      at: new Date(atOf(event)),
      transactions: [set],
    });
    return (
      (await outgoing.queue(trx, partner, {
        type: set.type,
        raw,
        controlNumber,
        loadId: tender.load_id,
        sourceEventId: event.id,
      })) !== null
    );
  };

  return {
    ...EDI_REACTOR,
    handles: HANDLED,
    async handle(events, page) {
      const known: Known = { byLoad: new Map(), byTour: new Map() };
      const plans: Plan[] = [];
      for (const event of events) {
        try {
          const plan = await planOf(known, event);
          if (plan) plans.push(plan);
        } catch (error) {
          // One event that cannot be answered must not hold the others back.
          deps.logger.warn(
            { err: error, eventId: event.id, type: event.type },
            'EDI: no document for an event',
          );
        }
      }
      if (plans.length === 0) return 'idle';
      let queued = false;
      await page.commit(async (trx) => {
        for (const plan of plans) if (await write(trx, plan)) queued = true;
      });
      if (queued) deps.queued();
    },
  };
}

/** When an event happened, from its data's time field. */
function atOf(event: RecordedEvent): string {
  const data = event.data as Record<string, unknown>;
  for (const key of ['at', 'changedAt', 'canceledAt', 'expiredAt', 'acceptedAt', 'submittedAt']) {
    const value = data[key];
    if (typeof value === 'string') return value;
  }
  return new Date().toISOString();
}
