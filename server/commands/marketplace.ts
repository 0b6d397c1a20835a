/**
 * The marketplace's command side as the routes and reactors use it: the commands of loads,
 * offers, tours and chat, each area the only writer of its streams, and the steps that span them
 * (`shipments.ts`). Decisions read the streams (`streams.ts`), never a read model.
 */
import { createClaimCommands } from './claims.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import type { IdentityCommands } from './identity.ts';
import type { Caller } from './caller.ts';
import { createChatCommands } from './chat.ts';
import { createLoadCommands } from './loads.ts';
import { createOfferCommands } from './offers.ts';
import { createShipmentSteps } from './shipments.ts';
import { createStreamReaders, isTourParty, tourActorOf } from './streams.ts';
import { createTourCommands } from './tours.ts';

export type { Caller };
export { isTourParty, tourActorOf };

export function createMarketplaceCommands(deps: {
  store: EventStore;
  db: Kysely<DB>;
  identity: IdentityCommands;
  secrets?: SecretBox;
}) {
  const { store, db, identity, secrets } = deps;
  const readers = createStreamReaders({ store, identity });
  const loads = createLoadCommands({ store, db, readers });
  const offers = createOfferCommands({ store, readers });
  const tours = createTourCommands({ store, readers, secrets });
  const chat = createChatCommands({ store, readers });
  const claims = createClaimCommands({
    store,
    db,
    loadTour: readers.loadTour,
    loadLoad: readers.loadLoad,
  });
  const shipments = createShipmentSteps({ readers, loads, offers, tours, claims });
  const { loadLoad, loadOffer, loadTour, requireActiveOrganization, ownLoad } = readers;

  return {
    loadLoad,
    loadOffer,
    loadTour,
    requireActiveOrganization,
    ownLoad,
    completeAcceptance: shipments.completeAcceptance,
    postLoad: loads.postLoad,
    updateLoad: loads.updateLoad,
    extendExpiration: loads.extendExpiration,
    expireLoad: loads.expireLoad,
    openLoadToMarketplace: loads.openLoadToMarketplace,
    cancelLoad: shipments.cancelLoad,
    submitOffer: offers.submitOffer,
    changeOffer: shipments.changeOffer,
    bookNow: shipments.bookNow,
    uploadContract: shipments.uploadContract,
    recordRateConfirmation: offers.recordRateConfirmation,
    visibleTour: tours.visibleTour,
    assignTour: tours.assignTour,
    changeTourStatus: shipments.changeTourStatus,
    addTourEvent: tours.addTourEvent,
    addSystemTourEvent: tours.addSystemTourEvent,
    recordPositions: tours.recordPositions,
    rateTour: tours.rateTour,
    confirmDelivery: tours.confirmDelivery,
    shareTour: tours.shareTour,
    revokeTourShare: tours.revokeTourShare,
    releaseCode: tours.releaseCode,
    pickupWindowOf: tours.pickupWindowOf,
    createDockLink: tours.createDockLink,
    revokeDockLink: tours.revokeDockLink,
    recordDockRelease: tours.recordDockRelease,
    postChatMessage: chat.postChatMessage,
  };
}

export type MarketplaceCommands = ReturnType<typeof createMarketplaceCommands>;
