/**
 * The command handlers of the marketplace: each loads the streams it needs, asks the deciders and
 * appends. A step that spans aggregates (accepting an offer, cancelling a load, confirming a
 * delivery) first records the decisive event on the load stream, whose expected revision makes it
 * the single point of agreement, then carries the follow-ups to the proposals and the tour.
 */
import { randomUUID } from 'node:crypto';
import { GenericStatus, LocationType, Role, TourStatus } from '../../domain/catalog.ts';
import { loadDecider } from '../../domain/loads/load.decide.ts';
import { loadStream, type Load, type LoadCommand, type LoadDetails, type LoadEvent, type LoadStop, type PostedLoad } from '../../domain/loads/load.types.ts';
import { savedLocationsStream, type LocationSaved } from '../../domain/loads/savedLocation.ts';
import { proposalDecider, proposalIdFor, uuidV5 } from '../../domain/proposals/proposal.decide.ts';
import {
  proposalStream, rateConfirmationStream, type DeclineReason, type RateConfirmationIssued, type Proposal, type ProposalCommand, type ProposalEvent, type SubmittedProposal,
} from '../../domain/proposals/proposal.types.ts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import { tourChatDecider } from '../../domain/tours/tourChat.decide.ts';
import { tourDecider, tourStatusName } from '../../domain/tours/tour.decide.ts';
import {
  tourChatStream, tourPositionsStream, tourStream, type OpenedTour, type PositionRecorded, type RatingEntry, type Tour, type TourActor,
  type TourCommand, type TourEvent, type TourEventType, type TourStop,
} from '../../domain/tours/tour.types.ts';
import type { LoadBody } from '../../domain/schemas/load.schema.ts';
import type { TourStatusId } from '../../domain/catalog.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import { metadataOf, type Caller } from './caller.ts';
import { WrongExpectedRevisionError, type EventStore, type LogPosition } from '../eventstore/eventStore.ts';
import { isSuperadmin, type Actor } from '../http/auth.ts';
import { latest, type IdentityCommands } from '../identity/identity.ts';
import { openProposalIds } from '../../projections/marketplace/marketplace.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export type { Caller };

const SAVED_LOCATION_NAMESPACE = 'f3b0c6de-52a1-4d4c-9a3f-6b1f2f0e7a11';

const metadata = metadataOf;

/** The acting organization for the deciders' tenant rule: null for a Superadmin. */
const byOf = (actor: Actor): string | null => (isSuperadmin(actor) ? null : actor.organizationId);

export const tourActorOf = (actor: Actor | null): TourActor => {
  if (!actor) return { userId: null, party: 'system', organizationId: null };
  const party = actor.roleId === Role.Superadmin ? 'admin' : actor.roleId === Role.Shipper ? 'shipper' : actor.roleId === Role.Driver ? 'driver' : 'carrier';
  return { userId: actor.userId, party, organizationId: actor.organizationId };
};

export function createMarketplaceCommands(deps: { store: EventStore; db: Kysely<DB>; identity: IdentityCommands }) {
  const { store, db, identity } = deps;

  const fold = async <S, E>(stream: string, decider: { initialState: () => S; evolve: (s: S, e: E) => S }): Promise<S> => {
    const { events } = await store.readStream<any>(stream);
    return (events as E[]).reduce(decider.evolve, decider.initialState());
  };

  const runLoad = (command: LoadCommand, caller: Caller | null, now: string) =>
    handleCommand<Load, LoadCommand, LoadEvent>(store, loadStream(command.data.loadId), loadDecider, command, metadata(caller, now, command.data.loadId));
  const runProposal = (command: ProposalCommand, loadId: string, caller: Caller | null, now: string) =>
    handleCommand<Proposal, ProposalCommand, ProposalEvent>(store, proposalStream(command.data.proposalId), proposalDecider, command, metadata(caller, now, loadId));
  const runTour = (command: TourCommand, loadId: string, caller: Caller | null, now: string) =>
    handleCommand<Tour, TourCommand, TourEvent>(store, tourStream(command.data.tourId), tourDecider, command, metadata(caller, now, loadId));

  const loadLoad = async (loadId: string): Promise<PostedLoad | null> => {
    const state = await fold<Load, LoadEvent>(loadStream(loadId), loadDecider);
    return state.posted ? state : null;
  };
  const loadProposal = async (proposalId: string): Promise<SubmittedProposal | null> => {
    const state = await fold<Proposal, ProposalEvent>(proposalStream(proposalId), proposalDecider);
    return state.exists ? state : null;
  };
  const loadTour = async (tourId: string): Promise<OpenedTour | null> => {
    const state = await fold<Tour, TourEvent>(tourStream(tourId), tourDecider);
    return state.exists ? state : null;
  };

  /** Posting loads, bidding and running tours need an Active organization (403 with the reason). */
  const requireActiveOrganization = async (actor: Actor) => {
    if (isSuperadmin(actor)) return;
    if (!actor.organizationId) throw new ForbiddenError('You do not belong to an organization');
    const organization = await identity.loadOrganization(actor.organizationId);
    if (!organization || organization.status !== GenericStatus.Active) {
      throw new ForbiddenError('Your organization is not active yet: a Superadmin must approve it first');
    }
  };

  /** A load the caller may act on as its shipper: another organization's load is not found. */
  const ownLoad = async (actor: Actor, loadId: string): Promise<PostedLoad> => {
    const load = await loadLoad(loadId);
    if (!load || (!isSuperadmin(actor) && load.shipperOrganizationId !== actor.organizationId)) throw new NotFoundError('Load not found');
    return load;
  };

  const isOpen = (load: PostedLoad, now: string) => load.status === GenericStatus.Created && load.details.expiration > now;

  const nextGuid = async (): Promise<string> => {
    const { rows } = await sql<{ n: string }>`SELECT nextval('load_guid_seq')::text AS n`.execute(db);
    return `L-${rows[0]!.n.padStart(6, '0')}`;
  };

  const toDetails = (body: LoadBody, previous: LoadStop[] = []): LoadDetails => {
    const { locations, ...rest } = body;
    const stops: LoadStop[] = locations.map((location) => ({
      id: location.id && previous.some((stop) => stop.id === location.id) ? location.id : randomUUID(),
      locationType: location.locationType,
      address: location.address,
      city: location.city,
      state: location.state,
      name: location.name,
      latitude: location.latitude,
      longitude: location.longitude,
      contactName: location.contactName,
      contactPhone: location.contactPhone,
      number: location.locationType === LocationType.Pickup || location.locationType === LocationType.Dropoff ? location.number : null,
    }));
    return { ...rest, stops };
  };

  const saveLocations = async (caller: Caller, organizationId: string, body: LoadBody, now: string): Promise<LogPosition | null> => {
    const events: LocationSaved[] = body.locations.filter((location) => location.saveLocation).map((location) => ({
      type: 'LocationSaved',
      data: {
        organizationId,
        location: {
          id: uuidV5(`${organizationId}:${location.name.trim().toLowerCase()}:${location.address.trim().toLowerCase()}`, SAVED_LOCATION_NAMESPACE),
          name: location.name, address: location.address, city: location.city, state: location.state,
          latitude: location.latitude, longitude: location.longitude, contactName: location.contactName, contactPhone: location.contactPhone,
          number: location.number, locationType: location.locationType,
        },
        savedBy: caller.actor.userId,
        savedAt: now,
      },
    }));
    if (events.length === 0) return null;
    const result = await store.append(savedLocationsStream(organizationId), events, { expectedRevision: 'any', metadata: metadata(caller, now, null) });
    return result.position;
  };

  /** Declines every other open offer on the load (after an acceptance or a cancellation). */
  const declineOthers = async (loadId: string, exceptProposalId: string | null, reason: DeclineReason, message: string, caller: Caller | null, now: string) => {
    const ids = await openProposalIds(db, loadId);
    // The read model may lag the log by a moment: also decline proposals it does not show yet on the next run.
    let last: LogPosition | null = null;
    for (const id of ids) {
      if (id === exceptProposalId) continue;
      const { position } = await runProposal({ type: 'DeclineProposal', data: { proposalId: id, by: null, userId: null, reason, message, now } }, loadId, caller, now);
      last = latest(last, position);
    }
    return last;
  };

  /**
   * Carries a recorded acceptance (LoadProposalAccepted on the load stream) to the proposal, the
   * other offers and the tour. Idempotent: each step is taken only if it is still missing, so it
   * also repairs a shipment whose follow-ups were cut short by a crash (run by the scheduler).
   */
  const completeAcceptance = async (loadId: string, caller: Caller | null, now: string): Promise<LogPosition | null> => {
    const load = await loadLoad(loadId);
    if (!load || !load.acceptedProposalId || !load.tourId || load.status === GenericStatus.Canceled) return null;
    const proposalId = load.acceptedProposalId;
    const tourId = load.tourId;
    let last: LogPosition | null = null;
    const proposal = await loadProposal(proposalId);
    if (proposal && (proposal.status === GenericStatus.SubmittedProposal || proposal.status === GenericStatus.PendingAcceptance)) {
      last = latest(last, (await runProposal({ type: 'AcceptProposal', data: { proposalId, by: null, userId: caller?.actor.userId ?? load.postedBy, tourId, now } }, loadId, caller, now)).position);
    }
    last = latest(last, await declineOthers(loadId, proposalId, 'otherAccepted', 'Another offer was accepted', caller, now));
    if (!(await loadTour(tourId)) && proposal) {
      const stops: TourStop[] = load.details.stops.map((stop) => ({
        id: stop.id, locationType: stop.locationType, name: stop.name, address: stop.address, city: stop.city, state: stop.state,
        latitude: stop.latitude, longitude: stop.longitude,
      }));
      const opened = await runTour({
        type: 'OpenTour',
        data: {
          tourId, loadId, loadGuid: load.guid, proposalId, shipperOrganizationId: load.shipperOrganizationId,
          carrierOrganizationId: proposal.carrierOrganizationId, price: load.price ?? proposal.price, eldTruckName: proposal.eldTruckName, stops, now,
        },
      }, loadId, caller, now);
      last = latest(last, opened.position);
    }
    return last;
  };

  return {
    loadLoad, loadProposal, loadTour, requireActiveOrganization, ownLoad, completeAcceptance,

    async postLoad(caller: Caller, body: LoadBody, now: string) {
      const { actor } = caller;
      await requireActiveOrganization(actor);
      if (!actor.organizationId) throw new ForbiddenError('A Superadmin posts loads on behalf of a shipper from its account');
      const loadId = randomUUID();
      const guid = await nextGuid();
      const details = toDetails(body);
      const result = await runLoad({ type: 'PostLoad', data: { loadId, guid, organizationId: actor.organizationId, userId: actor.userId, details, now } }, caller, now);
      const saved = await saveLocations(caller, actor.organizationId, body, now);
      return { id: loadId, guid, position: latest(result.position, saved) };
    },

    async updateLoad(caller: Caller, loadId: string, body: LoadBody, now: string) {
      const load = await ownLoad(caller.actor, loadId);
      const details = toDetails(body, load.details.stops);
      const result = await runLoad({ type: 'UpdateLoad', data: { loadId, by: byOf(caller.actor), userId: caller.actor.userId, details, now } }, caller, now);
      const saved = await saveLocations(caller, load.shipperOrganizationId, body, now);
      return latest(result.position, saved);
    },

    async extendExpiration(caller: Caller, loadId: string, expiration: string, expirationTimezone: LoadDetails['expirationTimezone'] | undefined, now: string) {
      const load = await ownLoad(caller.actor, loadId);
      const zone = expirationTimezone ?? load.details.expirationTimezone;
      const result = await runLoad({ type: 'ExtendExpiration', data: { loadId, by: byOf(caller.actor), expiration, expirationTimezone: zone, now } }, caller, now);
      return result.position;
    },

    /** Run by the scheduler: pauses a load whose offer expired with no accepted proposal. */
    async expireLoad(loadId: string, now: string) {
      const result = await runLoad({ type: 'ExpireLoad', data: { loadId, now } }, null, now);
      return result.events.length > 0;
    },

    async cancelLoad(caller: Caller, loadId: string, message: string, now: string) {
      const load = await ownLoad(caller.actor, loadId);
      const tour = load.tourId ? await loadTour(load.tourId) : null;
      const result = await runLoad({ type: 'CancelLoad', data: { loadId, by: byOf(caller.actor), message, tourStatus: tour?.status ?? null, now } }, caller, now);
      let last = result.position;
      last = latest(last, await declineOthers(loadId, null, 'loadCanceled', message, caller, now));
      if (tour && tour.status !== TourStatus.Canceled) {
        const canceled = await runTour({ type: 'CancelTour', data: { tourId: tour.tourId, actor: { ...tourActorOf(caller.actor), party: isSuperadmin(caller.actor) ? 'admin' : 'shipper' }, message, now } }, loadId, caller, now);
        last = latest(last, canceled.position);
      }
      return last;
    },

    async submitProposal(caller: Caller, loadId: string, offer: { price: number; message: string; eldTruckName: string | null }, now: string) {
      const { actor } = caller;
      await requireActiveOrganization(actor);
      if (!actor.organizationId) throw new ForbiddenError('Only a carrier can make an offer');
      const load = await loadLoad(loadId);
      if (!load) throw new NotFoundError('Load not found');
      if (load.shipperOrganizationId === actor.organizationId) throw new ForbiddenError('You cannot make an offer on your own load');
      // A closed load is still "found" for a carrier who bid on it; for others it is not on the marketplace.
      const proposalId = proposalIdFor(loadId, actor.organizationId);
      // A blocked shipper's loads are off the marketplace (DOMAIN.md "Marketplace visibility": an Active shipper's).
      const open = isOpen(load, now) && (await identity.loadOrganization(load.shipperOrganizationId))?.status === GenericStatus.Active;
      if (!open && !(await loadProposal(proposalId))) throw new NotFoundError('Load not found');
      const result = await runProposal({
        type: 'SubmitProposal',
        data: {
          proposalId, loadId, loadGuid: load.guid, loadOpen: open, shipperOrganizationId: load.shipperOrganizationId,
          carrierOrganizationId: actor.organizationId, userId: actor.userId, price: offer.price, message: offer.message, eldTruckName: offer.eldTruckName, now,
        },
      }, loadId, caller, now);
      return { id: proposalId, revised: result.events.some((event) => event.type === 'ProposalRevised'), position: result.position };
    },

    /** PUT proposal/{id}: 5 accept, 12 decline, 11 counter, 10 accept counter, 7 withdraw. */
    async changeProposal(caller: Caller, proposalId: string, change: { status: number; message: string; price: number | null }, now: string) {
      const { actor } = caller;
      const proposal = await loadProposal(proposalId);
      const by = byOf(actor);
      const visible = proposal && (by === null || by === proposal.shipperOrganizationId || by === proposal.carrierOrganizationId);
      if (!proposal || !visible) throw new NotFoundError('Proposal not found');
      // A blocked carrier's open offer is hidden from the shipper: it cannot be answered either.
      if (by !== null && by === proposal.shipperOrganizationId && (proposal.status === GenericStatus.SubmittedProposal || proposal.status === GenericStatus.PendingAcceptance)
        && (await identity.loadOrganization(proposal.carrierOrganizationId))?.status === GenericStatus.Blocked) throw new NotFoundError('Proposal not found');
      const load = await loadLoad(proposal.loadId);
      if (!load) throw new NotFoundError('Load not found');
      const open = isOpen(load, now);
      const asShipper = by === null || by === proposal.shipperOrganizationId;
      const asCarrier = by === null || by === proposal.carrierOrganizationId;
      const loadId = proposal.loadId;
      const needs = (side: boolean, who: string) => { if (!side) throw new ForbiddenError(`Only the ${who} can do this`); };
      switch (change.status) {
        case GenericStatus.PendingAcceptance: {
          needs(asShipper, 'shipper');
          if (change.price === null) throw new IllegalStateError('A counter offer needs a price');
          return (await runProposal({ type: 'CounterProposal', data: { proposalId, by, userId: actor.userId, loadOpen: open, price: change.price, message: change.message, now } }, loadId, caller, now)).position;
        }
        case GenericStatus.SubmittedProposal:
          needs(asCarrier, 'carrier');
          return (await runProposal({ type: 'AcceptCounter', data: { proposalId, by, userId: actor.userId, loadOpen: open, now } }, loadId, caller, now)).position;
        case GenericStatus.Declined:
          needs(asShipper, 'shipper');
          return (await runProposal({ type: 'DeclineProposal', data: { proposalId, by, userId: actor.userId, reason: 'shipper', message: change.message, now } }, loadId, caller, now)).position;
        case GenericStatus.Canceled:
          needs(asCarrier, 'carrier');
          return (await runProposal({ type: 'CancelProposal', data: { proposalId, by, userId: actor.userId, message: change.message, now } }, loadId, caller, now)).position;
        case GenericStatus.Accepted: {
          needs(asShipper, 'shipper');
          if (proposal.status !== GenericStatus.SubmittedProposal) {
            // Let the decider phrase the refusal without touching the load.
            proposalDecider.decide({ type: 'AcceptProposal', data: { proposalId, by, userId: actor.userId, tourId: randomUUID(), now } }, proposal);
          }
          const tourId = randomUUID();
          // The load stream decides who wins: a second, concurrent accept fails its expected revision and is refused.
          const accepted = await runLoad({
            type: 'AcceptProposalForLoad',
            data: { loadId, by, proposalId, carrierOrganizationId: proposal.carrierOrganizationId, price: proposal.price, tourId, now },
          }, caller, now);
          return latest(accepted.position, await completeAcceptance(loadId, caller, now));
        }
        default:
          throw new IllegalStateError(`Unknown offer status ${change.status}`);
      }
    },

    /** POST proposal/load/{loadId} with status 14: the winning carrier's signed contract. */
    async uploadContract(caller: Caller, loadId: string, contractFileId: string, now: string) {
      const { actor } = caller;
      const load = await loadLoad(loadId);
      const by = byOf(actor);
      if (!load || !load.acceptedProposalId || (by !== null && by !== load.carrierOrganizationId)) throw new NotFoundError('Load not found');
      const proposalId = load.acceptedProposalId;
      let last = (await runProposal({ type: 'UploadContract', data: { proposalId, by, userId: actor.userId, contractFileId, now } }, loadId, caller, now)).position;
      if (load.status === GenericStatus.Accepted) {
        last = latest(last, (await runLoad({ type: 'SignContract', data: { loadId, proposalId, contractFileId, now } }, caller, now)).position);
      }
      const tour = load.tourId ? await loadTour(load.tourId) : null;
      if (tour && (tour.status === TourStatus.BidAccepted || tour.status === TourStatus.CarrierConfirmed)) {
        last = latest(last, (await runTour({ type: 'ConfirmCarrier', data: { tourId: tour.tourId, contractFileId, now } }, loadId, caller, now)).position);
      }
      return { proposalId, position: last };
    },

    /** Records the hash of a rate confirmation handed out, in the load's audit trail. */
    async recordRateConfirmation(caller: Caller, proposal: SubmittedProposal, sha256: string, bytes: number, now: string) {
      const event: RateConfirmationIssued = {
        type: 'RateConfirmationIssued',
        data: { proposalId: proposal.proposalId, loadId: proposal.loadId, sha256, bytes, issuedTo: caller.actor.userId, issuedAt: now },
      };
      return (await store.append(rateConfirmationStream(proposal.proposalId), [event], { expectedRevision: 'any', metadata: metadata(caller, now, proposal.loadId) })).position;
    },

    /** A tour the caller is a party of (shipper, carrier, the assigned driver, a Superadmin); else not found. */
    async visibleTour(actor: Actor, tourId: string): Promise<OpenedTour> {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
      return tour;
    },

    async assignTour(caller: Caller, tourId: string, assigneeId: string, now: string) {
      const { actor } = caller;
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
      const driver = await identity.loadUser(assigneeId);
      if (!driver || driver.roleId !== Role.Driver || driver.organizationId !== tour.carrierOrganizationId) throw new NotFoundError('Driver not found');
      if (driver.status !== GenericStatus.Active) throw new IllegalStateError('This driver is not active');
      await requireActiveOrganization(actor);
      return (await runTour({ type: 'AssignTour', data: { tourId, actor: tourActorOf(actor), assigneeId, assigneeName: driver.name, now } }, tour.loadId, caller, now)).position;
    },

    async changeTourStatus(caller: Caller, tourId: string, to: TourStatusId, message: string, now: string) {
      const { actor } = caller;
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
      if (to === TourStatus.Canceled) {
        const result = await runTour({ type: 'CancelTour', data: { tourId, actor: tourActorOf(actor), message, now } }, tour.loadId, caller, now);
        return result.position;
      }
      const result = await runTour({ type: 'ChangeTourStatus', data: { tourId, actor: tourActorOf(actor), to, message, now } }, tour.loadId, caller, now);
      let last = result.position;
      if (to === TourStatus.Delivered) {
        last = latest(last, (await runLoad({ type: 'CompleteLoad', data: { loadId: tour.loadId, tourId, now } }, caller, now)).position);
      }
      return last;
    },

    async addTourEvent(caller: Caller, tourId: string, entry: { type: TourEventType; message: string; stopId: string | null }, now: string) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      const eventId = randomUUID();
      const result = await runTour({ type: 'AddTourEvent', data: { tourId, actor: tourActorOf(caller.actor), eventId, ...entry, now } }, tour.loadId, caller, now);
      return { id: eventId, position: result.position };
    },

    /** A note the system adds to a tour's timeline (no author), caused by the event `causationId`. */
    async addSystemTourEvent(tourId: string, entry: { type: TourEventType; message: string; stopId: string | null }, causationId: string, now: string) {
      const tour = await loadTour(tourId);
      if (!tour) throw new NotFoundError('Tour not found');
      const eventId = randomUUID();
      const result = await handleCommand<Tour, TourCommand, TourEvent>(store, tourStream(tourId), tourDecider, {
        type: 'AddTourEvent', data: { tourId, actor: tourActorOf(null), eventId, ...entry, now },
      }, { userId: null, organizationId: null, correlationId: tour.loadId, causationId, at: now });
      return { id: eventId, position: result.position };
    },

    /** Positions from the assigned driver (or, with no caller, the ELD poller), then the geofence rule. */
    async recordPositions(caller: Caller | null, tourId: string, positions: Omit<PositionRecorded['data'], 'tourId' | 'source'>[], now: string) {
      // One read of the tour serves the checks and the geofence; it is read again only if the tour
      // changed under the geofence's append.
      const readTour = async () => {
        const { events: history, revision } = await store.readStream<TourEvent>(tourStream(tourId));
        return { state: history.reduce(tourDecider.evolve, tourDecider.initialState()), revision };
      };
      let current = await readTour();
      const tour = current.state.exists ? current.state : null;
      if (!tour || (caller && !isTourParty(caller.actor, tour))) throw new NotFoundError('Tour not found');
      if (caller && caller.actor.userId !== tour.assigneeId && !isSuperadmin(caller.actor)) {
        throw new ForbiddenError('Only the assigned driver sends positions');
      }
      if (![TourStatus.ReadyForPickup, TourStatus.Dispatched, TourStatus.InTransit, TourStatus.PendingDeliveryConfirmation].includes(tour.status as never)) {
        throw new IllegalStateError(`Positions are recorded while the tour is on the road, not while it is ${tourStatusName(tour.status)}`);
      }
      const sorted = [...positions].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
      const events: PositionRecorded[] = sorted.map((position) => ({ type: 'PositionRecorded', data: { tourId, source: caller ? 'driver' : 'eld', ...position } }));
      const appended = await store.append(tourPositionsStream(tourId), events, { expectedRevision: 'any', metadata: metadata(caller, now, tour.loadId) });
      // The geofence over the whole batch in one decision: fold the tour once, observe each position
      // on the evolving state, append what it caused in one go (retried once on a concurrent change).
      let observedAt: LogPosition | null = null;
      for (let attempt = 0; ; attempt++) {
        let { state } = current;
        const caused: TourEvent[] = [];
        for (const position of sorted) {
          const decided = tourDecider.decide({ type: 'ObservePosition', data: { tourId, latitude: position.latitude, longitude: position.longitude, recordedAt: position.recordedAt, now } }, state);
          state = decided.reduce(tourDecider.evolve, state);
          caused.push(...decided);
        }
        if (caused.length === 0) break;
        try {
          observedAt = (await store.append(tourStream(tourId), caused, { expectedRevision: current.revision, metadata: metadata(null, now, tour.loadId) })).position;
          break;
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError) || attempt >= 1) throw error;
          current = await readTour();
        }
      }
      return { accepted: events.length, position: latest(appended.position, observedAt), tour };
    },

    async rateTour(caller: Caller, tourId: string, ratings: RatingEntry[], now: string) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      return (await runTour({ type: 'RateTour', data: { tourId, actor: tourActorOf(caller.actor), ratings, now } }, tour.loadId, caller, now)).position;
    },

    async postChatMessage(caller: Caller, tourId: string, text: string, userName: string, now: string) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      const messageId = randomUUID();
      const result = await handleCommand(store, tourChatStream(tourId), tourChatDecider as never, {
        type: 'PostMessage', data: { tourId, messageId, userId: caller.actor.userId, userName, organizationId: caller.actor.organizationId, text, now },
      } as never, metadata(caller, now, tour.loadId));
      return { id: messageId, position: result.position, tour };
    },
  };
}

export type MarketplaceCommands = ReturnType<typeof createMarketplaceCommands>;

export const isTourParty = (actor: Actor, tour: { shipperOrganizationId: string; carrierOrganizationId: string; assigneeId: string | null }): boolean => {
  if (isSuperadmin(actor)) return true;
  if (actor.roleId === Role.Driver) return tour.assigneeId === actor.userId;
  return actor.organizationId === tour.shipperOrganizationId || actor.organizationId === tour.carrierOrganizationId;
};

