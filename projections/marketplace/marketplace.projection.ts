import type { LoadEvent } from '../../domain/loads/load.types.ts';
import type { LocationSaved } from '../../domain/loads/savedLocation.ts';
import type { OfferEvent } from '../../domain/offers/offer.types.ts';
import type { TourEvent } from '../../domain/tours/tour.types.ts';
import { defineProjection } from '../projection.ts';
import { loadHandlers } from './loadHandlers.ts';
import { type Handler, MarketplacePage } from './marketplacePage.ts';
import { offerHandlers } from './offerHandlers.ts';
import { tourHandlers } from './tourHandlers.ts';

/** The events of the marketplace read model (a tour's shares are a read model of their own). */
type MarketplaceEvent =
  | LoadEvent
  | OfferEvent
  | Exclude<
      TourEvent,
      {
        type:
          | 'TourShared'
          | 'TourShareRevoked'
          | 'ProofOfDeliveryRecorded'
          | 'DockLinkCreated'
          | 'DockLinkRevoked'
          | 'DeliveryConfirmed';
      }
    >
  | LocationSaved;

/** One handler per event type the read model takes, each a small named function. */
const handlers: {
  [T in MarketplaceEvent['type']]: Handler<Extract<MarketplaceEvent, { type: T }>>;
} = { ...loadHandlers, ...offerHandlers, ...tourHandlers };

const handlerOf = (event: MarketplaceEvent) =>
  handlers[event.type] as Handler<{ data: MarketplaceEvent['data'] }>;

/**
 * Loads, their offers and their tours as the tables, the marketplace and the tracking screens read
 * them; plus tour timelines, ratings and saved locations. One projection, because a load row shows
 * its offers and its tour's status: all three move together in one transaction.
 *
 * A page is applied set-based: the rows its events touch are read in one statement per table, the
 * events are folded over them in memory in log order, and the final rows are written back with one
 * multi-row upsert per table; offer counts are recounted once per load at the end.
 */
export const marketplaceProjection = defineProjection({
  name: 'marketplace',
  // 2: the accessorial terms of loads and offers (migration 2026_11_29_1400_marketplace_terms).
  version: 2,
  tables: [
    'loads_view',
    'proposals_view',
    'tours_view',
    'tour_events_view',
    'tour_ratings_view',
    'saved_locations_view',
  ],
  handles: Object.keys(handlers),
  async apply(trx, recorded) {
    // Only the types it handles reach it; anything else is left alone, as it always was.
    const events = (recorded as unknown as MarketplaceEvent[]).filter((event) =>
      Object.hasOwn(handlers, event.type),
    );
    const page = new MarketplacePage();
    await page.read(
      trx,
      events.map((event) => handlerOf(event).touches(event.data)),
    );
    for (const event of events) handlerOf(event).fold(page, event.data);
    await page.write(trx);
  },
});
