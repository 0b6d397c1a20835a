/**
 * What the command modules read before they decide: the state of an aggregate folded from its
 * stream (never a read model), and the rules every area shares (who acts for which organization,
 * whether the caller's organization may trade). Nothing here writes.
 */
import { GenericStatus, Role } from '../../domain/catalog.ts';
import { loadDecider } from '../../domain/loads/load.decide.ts';
import {
  loadStream,
  type Load,
  type LoadEvent,
  type PostedLoad,
} from '../../domain/loads/load.types.ts';
import { listedOfferIds, loadOffersStream } from '../../domain/offers/loadOffers.ts';
import { offerDecider } from '../../domain/offers/offer.decide.ts';
import {
  offerStream,
  type Offer,
  type OfferEvent,
  type SubmittedOffer,
} from '../../domain/offers/offer.types.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import { tourDecider } from '../../domain/tours/tour.decide.ts';
import {
  tourStream,
  type OpenedTour,
  type Tour,
  type TourActor,
  type TourEvent,
} from '../../domain/tours/tour.types.ts';
import { opensAtOf } from '../../domain/loads/load.types.ts';
import { carrierStanding } from '../../domain/organizations/carrierPreferences.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { isSuperadmin, type Actor } from './caller.ts';
import { readCarrierPreferences } from './carrierPreferences.ts';
import type { IdentityCommands } from './identity.ts';

/** The acting organization for the deciders' tenant rule: null for a Superadmin. */
export const byOf = (actor: Actor): string | null =>
  isSuperadmin(actor) ? null : actor.organizationId;

export const tourActorOf = (actor: Actor | null): TourActor => {
  if (!actor) return { userId: null, party: 'system', organizationId: null };
  const party =
    actor.roleId === Role.Superadmin
      ? 'admin'
      : actor.roleId === Role.Shipper
        ? 'shipper'
        : actor.roleId === Role.Driver
          ? 'driver'
          : 'carrier';
  return { userId: actor.userId, party, organizationId: actor.organizationId };
};

export const isTourParty = (
  actor: Actor,
  tour: { shipperOrganizationId: string; carrierOrganizationId: string; assigneeId: string | null },
): boolean => {
  if (isSuperadmin(actor)) return true;
  if (actor.roleId === Role.Driver) return tour.assigneeId === actor.userId;
  return (
    actor.organizationId === tour.shipperOrganizationId ||
    actor.organizationId === tour.carrierOrganizationId
  );
};

export const isOpen = (load: PostedLoad, now: string) =>
  load.status === GenericStatus.Created && load.details.expiration > now;

export function createStreamReaders(deps: { store: EventStore; identity: IdentityCommands }) {
  const { store, identity } = deps;

  const fold = async <S, E>(
    stream: string,
    decider: { initialState: () => S; evolve: (s: S, e: E) => S },
  ): Promise<S> => {
    // biome-ignore lint/suspicious/noExplicitAny: the stream's events are the decider's own, cast just below
    const { events } = await store.readStream<any>(stream);
    return (events as E[]).reduce(decider.evolve, decider.initialState());
  };

  const loadLoad = async (loadId: string): Promise<PostedLoad | null> => {
    const state = await fold<Load, LoadEvent>(loadStream(loadId), loadDecider);
    return state.posted ? state : null;
  };
  const loadOffer = async (offerId: string): Promise<SubmittedOffer | null> => {
    const state = await fold<Offer, OfferEvent>(offerStream(offerId), offerDecider);
    return state.exists ? state : null;
  };
  const loadTour = async (tourId: string): Promise<OpenedTour | null> => {
    const state = await fold<Tour, TourEvent>(tourStream(tourId), tourDecider);
    return state.exists ? state : null;
  };
  /** Every offer made on a load, from the load's list of offers. */
  const offerIdsOfLoad = async (loadId: string): Promise<string[]> =>
    listedOfferIds((await store.readStream(loadOffersStream(loadId))).events);

  /** Posting loads, bidding and running tours need an Active organization (403 with the reason). */
  const requireActiveOrganization = async (actor: Actor) => {
    if (isSuperadmin(actor)) return;
    if (!actor.organizationId) throw new ForbiddenError('You do not belong to an organization');
    // A request's actor carries its organization's status, read from the organization's stream when
    // it was authenticated (platform.organizationStatus): asked again only for actors made elsewhere.
    const status =
      actor.organizationStatus ?? (await identity.loadOrganization(actor.organizationId))?.status;
    if (status !== GenericStatus.Active) {
      throw new ForbiddenError(
        'Your organization is not active yet: a Superadmin must approve it first',
      );
    }
  };

  /** A load the caller may act on as its shipper: another organization's load is not found. */
  const ownLoad = async (actor: Actor, loadId: string): Promise<PostedLoad> => {
    const load = await loadLoad(loadId);
    if (!load || (!isSuperadmin(actor) && load.shipperOrganizationId !== actor.organizationId))
      throw new NotFoundError('Load not found');
    return load;
  };

  /**
   * Whether a carrier finds a load on the marketplace now, the one rule of making an offer and of
   * booking at the Book Now price: 'blocked' when the shipper blocked the carrier (none of its loads
   * is found, whatever came before); 'open' while the load is open, its shipper Active and, for a
   * preferred-only load before it opens to the marketplace, the carrier among the preferred;
   * 'closed' otherwise.
   */
  const marketplaceReach = async (
    load: PostedLoad,
    carrierOrganizationId: string,
    now: string,
  ): Promise<'blocked' | 'open' | 'closed'> => {
    const standing = carrierStanding(
      await readCarrierPreferences(store, load.shipperOrganizationId),
      carrierOrganizationId,
    );
    if (standing === 'blocked') return 'blocked';
    const preferredOnly =
      !load.openedToMarketplace && opensAtOf(load.postedAt, load.details.audience) !== null;
    const open =
      (!preferredOnly || standing === 'preferred') &&
      isOpen(load, now) &&
      (await identity.loadOrganization(load.shipperOrganizationId))?.status ===
        GenericStatus.Active;
    return open ? 'open' : 'closed';
  };

  return {
    loadLoad,
    loadOffer,
    loadTour,
    offerIdsOfLoad,
    requireActiveOrganization,
    ownLoad,
    marketplaceReach,
    identity,
  };
}
export type StreamReaders = ReturnType<typeof createStreamReaders>;
