import type { Kysely } from 'kysely';
import {
  HistoryParamsSchema as IdParams,
  historyAnswers,
  HistoryQuerySchema as HistoryQuery,
  type HistoryAnswer,
} from '../../domain/contracts/history.contract.ts';
import { loadDecider } from '../../domain/loads/load.decide.ts';
import { loadStream, type Load, type LoadEvent } from '../../domain/loads/load.types.ts';
import { LOAD_GET, LOADS_SHIPPER } from '../../domain/permissions.ts';
import { offerDecider } from '../../domain/offers/offer.decide.ts';
import {
  offerStream,
  rateConfirmationStream,
  type Offer,
  type OfferEvent,
} from '../../domain/offers/offer.types.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { publicEvent } from '../../domain/shared/publicEvent.ts';
import { tourDecider } from '../../domain/tours/tour.decide.ts';
import {
  tourChatStream,
  tourStream,
  type Tour,
  type TourEvent,
} from '../../domain/tours/tour.types.ts';
import { offerIdsOf } from '../../projections/marketplace/marketplace.queries.ts';
import { invoiceIdsOfLoad } from '../../projections/invoices/invoices.queries.ts';
import { invoiceStream } from '../../domain/invoices/invoice.types.ts';
import type { DB } from '../../storage/schema.ts';
import type { App } from '../http/routeContext.ts';
import { comparePositions, type EventStore, type RecordedEvent } from '../eventstore/eventStore.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import { readNamesAsOf } from '../identity/namesAsOf.ts';
import { contentDisposition } from '../integrations/files/uploads.ts';
import { loadAccess } from '../http/loadAccess.ts';

/** RFC 4180 quoting, and a leading =, +, - or @ neutralised so a spreadsheet never runs it as a formula. */
const csvCell = (value: unknown): string => {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

type TrailLoad = {
  loadId: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string | null;
  acceptedProposalId: string | null;
  tourId: string | null;
};

/**
 * What of a load's trail its reader may see. The load's shipper and a Superadmin see everything; a
 * carrier (only the accepted one reads the trail: `loadAccess` answers 404 to the others) sees the
 * load's own events, its own organization's offer with its rate confirmations, and the tour and chat
 * it runs, never another carrier's offer, price or message.
 */
type TrailReader = { allOffers: boolean; organizationId: string | null };
const readerOf = (actor: Actor, load: TrailLoad): TrailReader => ({
  allOffers: isSuperadmin(actor) || actor.organizationId === load.shipperOrganizationId,
  organizationId: actor.organizationId,
});

/**
 * Reads the load's streams the reader may see. Hidden offers are left out whole (their events, their
 * rate confirmations, their replayed state and their carrier's name), not masked: nothing counts them.
 */
async function readTrail(store: EventStore, db: Kysely<DB>, load: TrailLoad, reader: TrailReader) {
  const { events: loadEvents } = await store.readStream<LoadEvent>(loadStream(load.loadId));
  const offerIds = new Set<string>(await offerIdsOf(db, load.loadId));
  if (load.acceptedProposalId) offerIds.add(load.acceptedProposalId);
  const offers = await Promise.all(
    [...offerIds].map(async (id) => ({
      id,
      events: (await store.readStream<OfferEvent>(offerStream(id))).events,
    })),
  );
  const carrierOf = (events: RecordedEvent<OfferEvent>[]) =>
    events.find((event) => event.type === 'ProposalSubmitted')?.data.carrierOrganizationId;
  const visible = offers.filter(
    (offer) =>
      reader.allOffers ||
      (reader.organizationId !== null && carrierOf(offer.events) === reader.organizationId),
  );
  const confirmationEvents = (
    await Promise.all(visible.map(({ id }) => store.readStream(rateConfirmationStream(id))))
  ).flatMap((stream) => stream.events);
  const seesTour =
    Boolean(load.tourId) &&
    (reader.allOffers ||
      (reader.organizationId !== null && load.carrierOrganizationId === reader.organizationId));
  const tourEvents = seesTour
    ? (await store.readStream<TourEvent>(tourStream(load.tourId!))).events
    : [];
  const chatEvents = seesTour ? (await store.readStream(tourChatStream(load.tourId!))).events : [];
  // The carrier's invoice of the load: its two parties (the shipper and the carrier that ran the tour).
  const invoiceEvents = seesTour
    ? (
        await Promise.all(
          (
            await invoiceIdsOfLoad(db, load.loadId)
          ).map((id) => store.readStream(invoiceStream(id))),
        )
      ).flatMap((stream) => stream.events)
    : [];
  return {
    loadEvents,
    offerStreams: visible.map((offer) => offer.events),
    confirmationEvents,
    tourEvents,
    chatEvents,
    invoiceEvents,
  };
}

/**
 * The audit trail of one load: every event of its load, offer, tour, chat and rate-confirmation
 * streams that the reader may see (`readTrail`), in log order with who and when; with `at`, the
 * load, those offers and its tour as they stood then, replayed through the deciders' own evolve.
 */
export async function historyRoutes(app: App) {
  const { store, marketplace } = app.platform;
  const { db } = app.platform.database;

  app.get(
    '/loads/:id/history',
    {
      schema: {
        tags: ['loads'],
        summary: "A load's audit trail (?at= replays it to that moment; ?format=csv downloads it)",
        params: IdParams,
        querystring: HistoryQuery,
        response: historyAnswers,
      },
      onRequest: can(LOAD_GET, LOADS_SHIPPER),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const load = await marketplace.loadLoad(request.params.id);
      if (!load) throw new NotFoundError('Load not found');
      const access = await loadAccess(db, actor, load);
      if (!access.party) throw new NotFoundError('Load not found');

      const {
        loadEvents,
        offerStreams,
        confirmationEvents,
        tourEvents,
        chatEvents,
        invoiceEvents,
      } = await readTrail(store, db, load, readerOf(actor, load));
      const all: RecordedEvent[] = [
        ...loadEvents,
        ...offerStreams.flat(),
        ...confirmationEvents,
        ...tourEvents,
        ...chatEvents,
        ...invoiceEvents,
      ].sort((a, b) => comparePositions(a.position, b.position));
      const at = request.query.at ? new Date(request.query.at).toISOString() : null;
      const shown = at ? all.filter((event) => event.metadata.at <= at) : all;

      // Names as they were when each event was written, folded from the identity streams: a rename never rewrites the past.
      const names = await readNamesAsOf(store, {
        users: shown
          .map((event) => event.metadata.userId)
          .filter((id): id is string => Boolean(id)),
        organizations: [
          ...shown
            .map((event) => event.metadata.organizationId)
            .filter((id): id is string => Boolean(id)),
          ...(at
            ? offerStreams.flatMap((events) =>
                events.flatMap((event) =>
                  event.type === 'ProposalSubmitted' ? [event.data.carrierOrganizationId] : [],
                ),
              )
            : []),
        ],
      });

      const entries = shown.map((event) => ({
        position: `${event.position.transactionId}:${event.position.globalPosition}`,
        at: event.metadata.at,
        type: event.type,
        stream: event.streamId,
        user: event.metadata.userId
          ? { id: event.metadata.userId, name: names.user(event.metadata.userId, event.position) }
          : null,
        organization: event.metadata.organizationId
          ? {
              id: event.metadata.organizationId,
              name: names.organization(event.metadata.organizationId, event.position),
            }
          : null,
        // Never a secret of the log (a tracking link's token hash): `publicEvent`.
        data: publicEvent(event).data,
      }));

      if (request.query.format === 'csv') {
        const header = [
          'position',
          'at',
          'type',
          'stream',
          'user_id',
          'user_name',
          'organization_id',
          'organization_name',
          'data',
        ];
        const lines = [
          header.join(','),
          ...entries.map((entry) =>
            [
              entry.position,
              entry.at,
              entry.type,
              entry.stream,
              entry.user?.id,
              entry.user?.name,
              entry.organization?.id,
              entry.organization?.name,
              entry.data,
            ]
              .map(csvCell)
              .join(','),
          ),
        ];
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            contentDisposition(
              `history-${load.guid}${at ? `-at-${at.replace(/[:.]/g, '-')}` : ''}.csv`,
            ),
          )
          .header('cache-control', 'private, no-store')
          .send(`${lines.join('\r\n')}\r\n`);
      }

      const answer: HistoryAnswer = { loadId: load.loadId, guid: load.guid, at, events: entries };
      if (at) {
        const before = <E extends { metadata: { at: string } }>(list: E[]) =>
          list.filter((event) => event.metadata.at <= at);
        const loadState = before(loadEvents).reduce<Load>(
          (state, event) => loadDecider.evolve(state, event),
          loadDecider.initialState(),
        );
        const proposals = offerStreams
          .map((events) =>
            before(events).reduce<Offer>(
              (state, event) => offerDecider.evolve(state, event),
              offerDecider.initialState(),
            ),
          )
          .filter((state) => state.exists)
          // The carrier named as it was at that moment, for the offers of the replay.
          .map((state) => ({
            ...state,
            carrierOrganization: {
              id: state.carrierOrganizationId,
              name: names.organizationAtTime(state.carrierOrganizationId, at),
            },
          }));
        const tourState = before(tourEvents).reduce<Tour>(
          (state, event) => tourDecider.evolve(state, event),
          tourDecider.initialState(),
        );
        answer.load = loadState.posted ? loadState : null;
        answer.proposals = proposals;
        answer.tour = tourState.exists ? tourState : null;
      }
      return answer;
    },
  );
}
