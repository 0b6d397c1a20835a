/**
 * The pushes read from the marketplace read model: what a committed page changed (an offer, a tour,
 * a load), as ids, and the rows those ids read back, each with the rooms that hear it.
 */
import type { Kysely } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import type { LoadEvent } from '../../domain/loads/load.types.ts';
import { PROPOSAL_NEW_NOTIFICATION, PROPOSAL_VIEW, TOURS_ALL } from '../../domain/permissions.ts';
import { publicEvent } from '../../domain/shared/publicEvent.ts';
import type { OfferEvent } from '../../domain/offers/offer.types.ts';
import type { TourEvent } from '../../domain/tours/tour.types.ts';
import { offerPushRows, tourPushRows } from '../../projections/marketplace/pushRows.queries.ts';
import { loadAudiences } from '../../projections/carrierPreferences/carrierPreferences.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { RecordedEvent } from '../eventstore/eventStore.ts';
import { readMarketplaceRows } from './marketplaceRow.ts';
import type { Emit, Push } from './push.ts';
import {
  MARKETPLACE_ROOM,
  organizationPermissionRoom,
  organizationRoom,
  tourRoom,
  userRoom,
} from './rooms.ts';

const OFFER_EVENTS = new Set([
  'ProposalSubmitted',
  'ProposalRevised',
  'ProposalCountered',
  'CounterAccepted',
  'ProposalAccepted',
  'ProposalDeclined',
  'ProposalCanceled',
  'ContractUploaded',
]);
const TOUR_STATUS_EVENTS = new Set([
  'TourOpened',
  'CarrierConfirmed',
  'TourStatusChanged',
  'TourCanceled',
]);
/** The dock's outcomes go to both sides at once, like any entry of the tour's timeline (a hold alerts their dispatchers). */
const TOUR_TIMELINE_EVENTS = new Set([
  'TourAssigned',
  'TourEventAdded',
  'TourRated',
  'PickupReleased',
  'PickupHeld',
]);
/** Load events that can change what the marketplace shows (not the contract or the completion). */
const LOAD_EVENTS = new Set([
  'LoadPosted',
  'LoadUpdated',
  'LoadExpirationExtended',
  'LoadExpired',
  'LoadCanceled',
  'LoadProposalAccepted',
  'LoadOpenedToMarketplace',
]);
/** Load events that take a listed load off the marketplace: carriers hear of them, once. */
const LEAVING_EVENTS = new Set(['LoadCanceled', 'LoadProposalAccepted']);
/** The read model whose commits carry rows to push. */
export const PUSHED_PROJECTION = 'marketplace';

/** Adds `more` to `into`, in commit order: the later flags and timeline entries after the earlier. */
export function mergeInto(into: RowWork, more: RowWork) {
  const offers = new Map(into.proposals);
  for (const [id, submitted] of more.proposals)
    offers.set(id, (offers.get(id) ?? false) || submitted);
  const tours = new Map(into.tours);
  for (const [id, entries] of more.tours) tours.set(id, [...(tours.get(id) ?? []), ...entries]);
  const loads = new Map(into.loads);
  for (const [id, flags] of more.loads) {
    const seen = loads.get(id);
    loads.set(
      id,
      seen
        ? {
            posted: seen.posted || flags.posted,
            leaving: seen.leaving || flags.leaving,
            ...(seen.opened || flags.opened ? { opened: true } : {}),
          }
        : flags,
    );
  }
  into.proposals = [...offers];
  into.tours = [...tours];
  into.loads = [...loads];
}

/** A timeline entry of a tour as `tour:status` and `tour:event` carry it. */
type TourEntry = { id: string; type: string; data: unknown; at: string };

/**
 * The data of a tour event as its entry carries it: without secrets (`publicEvent`) and without the
 * agreed price (TourOpened), since the tour's room and the assigned driver's hear the same message
 * and a driver is not told the price. The parties read it from the tour itself.
 */
function entryData(event: RecordedEvent): Record<string, unknown> {
  const { price: _price, ...data } = publicEvent(event).data;
  return data;
}

/** What a committed page changed, as ids: small enough to send to the other processes once a page. */
export type RowWork = {
  proposals: [offerId: string, submitted: boolean][];
  tours: [tourId: string, entries: TourEntry[]][];
  loads: [loadId: string, flags: LoadFlags][];
};
/** `opened`: its preferred-only window ended in this page (the others hear of it as a new load). */
type LoadFlags = { posted: boolean; leaving: boolean; opened?: boolean };

/** What a committed page of the marketplace read model changed: the rows to read and push. */
export function workOf(events: RecordedEvent[]): RowWork | null {
  const offers = new Map<string, boolean>(); // id -> submitted in this page
  const tours = new Map<string, TourEntry[]>();
  const loads = new Map<string, LoadFlags>();
  for (const event of events) {
    if (OFFER_EVENTS.has(event.type)) {
      const { proposalId: offerId } = (event as unknown as OfferEvent).data;
      offers.set(offerId, (offers.get(offerId) ?? false) || event.type === 'ProposalSubmitted');
    } else if (TOUR_STATUS_EVENTS.has(event.type) || TOUR_TIMELINE_EVENTS.has(event.type)) {
      const { tourId } = (event as unknown as TourEvent).data;
      tours.set(tourId, [
        ...(tours.get(tourId) ?? []),
        { id: event.id, type: event.type, data: entryData(event), at: event.metadata.at },
      ]);
    } else if (LOAD_EVENTS.has(event.type)) {
      const { loadId } = (event as unknown as LoadEvent).data as { loadId: string };
      const seen = loads.get(loadId) ?? { posted: false, leaving: false };
      const opened = seen.opened || event.type === 'LoadOpenedToMarketplace';
      loads.set(loadId, {
        posted: seen.posted || event.type === 'LoadPosted',
        leaving: seen.leaving || LEAVING_EVENTS.has(event.type),
        ...(opened ? { opened: true } : {}),
      });
    }
  }
  if (offers.size === 0 && tours.size === 0 && loads.size === 0) return null;
  return { proposals: [...offers], tours: [...tours], loads: [...loads] };
}

/**
 * What the sockets hear of a committed page's work: the rows it changed, read once per kind, each with
 * its rooms. The webhooks decide who hears of an event by the same rooms (server/webhooks/audience.ts).
 */
export async function rowPushes(db: Kysely<DB>, work: RowWork): Promise<Push[]> {
  const pushes: Push[] = [];
  const emitLocal: Emit = (rooms, event, payload) => {
    pushes.push({ rooms, event, payload });
  };
  const offers = new Map(work.proposals);
  const tours = new Map(work.tours);
  for (const row of await offerPushRows(db, [...offers.keys()])) {
    if (offers.get(row.id)) {
      emitLocal(
        [organizationPermissionRoom(row.shipperOrganizationId, PROPOSAL_NEW_NOTIFICATION)],
        'proposal:new',
        {
          loadId: row.loadId,
          loadGuid: row.loadGuid,
          proposalId: row.id,
          carrier: { id: row.carrierOrganizationId, name: row.carrierName },
          price: row.price,
          at: row.submittedAt,
        },
      );
      // The offer may have changed again in the same page: the shipper's table hears where it stands.
      if (row.status === GenericStatus.SubmittedProposal) continue;
    }
    emitLocal(
      [
        organizationPermissionRoom(row.carrierOrganizationId, PROPOSAL_VIEW),
        organizationPermissionRoom(row.shipperOrganizationId, PROPOSAL_VIEW),
      ],
      'proposal:updated',
      {
        loadId: row.loadId,
        proposalId: row.id,
        status: row.status,
        price: row.price,
        counterPrice: row.counterPrice,
      },
    );
  }
  for (const row of await tourPushRows(db, [...tours.keys()])) {
    const rooms = [
      tourRoom(row.id),
      organizationPermissionRoom(row.shipperOrganizationId, TOURS_ALL),
      organizationPermissionRoom(row.carrierOrganizationId, TOURS_ALL),
    ];
    if (row.assigneeId) rooms.push(userRoom(row.assigneeId));
    // Each event is an entry of the tour's timeline; the status is the tour's row as committed.
    for (const event of tours.get(row.id) ?? []) {
      emitLocal(rooms, TOUR_STATUS_EVENTS.has(event.type) ? 'tour:status' : 'tour:event', {
        tourId: row.id,
        loadId: row.loadId,
        loadGuid: row.loadGuid,
        status: row.status,
        event,
      });
    }
  }
  const loadIds = work.loads.map(([loadId]) => loadId);
  const loadRows = await readMarketplaceRows(db, loadIds);
  const audiences = await loadAudiences(db, loadIds);
  for (const [loadId, { posted, leaving, opened }] of work.loads) {
    const row = loadRows.get(loadId);
    // Carriers hear of a load that is on the marketplace (or paused there), or has just left it; of no other.
    if (!row || (row.status !== GenericStatus.Created && !leaving)) continue;
    const audience = audiences.get(loadId);
    const blocked = (audience?.blocked ?? []).map(organizationRoom);
    if (audience?.preferredOnly) {
      // A preferred-only load: its shipper's preferred carriers only, at once.
      const rooms = audience.preferred
        .filter((id) => !audience.blocked.includes(id))
        .map((id) => organizationPermissionRoom(id, PROPOSAL_VIEW));
      if (rooms.length > 0)
        pushes.push({ rooms, event: posted ? 'load:posted' : 'load:updated', payload: row });
      continue;
    }
    if (opened) {
      // Its window ended: the others hear of it as of a new load; the preferred heard at its posting.
      pushes.push({
        rooms: [MARKETPLACE_ROOM],
        event: 'load:posted',
        payload: row,
        except: [...blocked, ...(audience?.preferred ?? []).map(organizationRoom)],
      });
      if (!posted && (audience?.preferred.length ?? 0) > 0)
        pushes.push({
          rooms: (audience?.preferred ?? []).map((id) =>
            organizationPermissionRoom(id, PROPOSAL_VIEW),
          ),
          event: 'load:updated',
          payload: row,
          except: blocked,
        });
      continue;
    }
    pushes.push({
      rooms: [MARKETPLACE_ROOM],
      event: posted ? 'load:posted' : 'load:updated',
      payload: row,
      ...(blocked.length > 0 ? { except: blocked } : {}),
    });
  }
  return pushes;
}
