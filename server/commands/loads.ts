/**
 * The commands of a load (stream `load-<id>`) and of an organization's saved locations: post, edit,
 * extend, expire, and the load's side of the steps that span the shipment (its acceptance, contract,
 * completion and cancellation, run by `shipments.ts`). This module is the only writer of both streams.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { LocationType } from '../../domain/catalog.ts';
import type { TourStatusId } from '../../domain/catalog.ts';
import { loadDecider } from '../../domain/loads/load.decide.ts';
import {
  loadStream,
  type Load,
  type LoadCommand,
  type LoadDetails,
  type LoadEvent,
  type LoadStop,
  type PostedLoad,
} from '../../domain/loads/load.types.ts';
import { savedLocationsStream, type LocationSaved } from '../../domain/loads/savedLocation.ts';
import { uuidV5 } from '../../domain/offers/offer.decide.ts';
import type { SubmittedOffer } from '../../domain/offers/offer.types.ts';
import type { LoadBody } from '../../domain/schemas/load.schema.ts';
import { completeTerms, STANDARD_TERMS, type AccessorialTerms } from '../../domain/loads/terms.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand, handleNewStreamCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';
import { byOf, type StreamReaders } from './streams.ts';

const SAVED_LOCATION_NAMESPACE = 'f3b0c6de-52a1-4d4c-9a3f-6b1f2f0e7a11';
const GUID_BLOCK = 20;

export function createLoadCommands(deps: {
  store: EventStore;
  db: Kysely<DB>;
  readers: StreamReaders;
}) {
  const { store, db, readers } = deps;
  const { requireActiveOrganization, ownLoad } = readers;

  const runLoad = (command: LoadCommand, caller: Caller | null, now: string) =>
    handleCommand<Load, LoadCommand, LoadEvent>(
      store,
      loadStream(command.data.loadId),
      loadDecider,
      command,
      metadataOf(caller, now, command.data.loadId),
    );

  /**
   * Load references come from the sequence GUID_BLOCK at a time: unique across processes, in
   * posting order within one, with the gaps a sequence has anyway (a restart skips the rest of a block).
   * Concurrent posts share one fetch.
   */
  const spareGuids: string[] = [];
  let fetching: Promise<void> | null = null;
  const nextGuid = async (): Promise<string> => {
    while (spareGuids.length === 0) {
      fetching ??= sql<{
        n: string;
      }>`SELECT nextval('load_guid_seq')::text AS n FROM generate_series(1, ${GUID_BLOCK})`
        .execute(db)
        .then(({ rows }) => {
          spareGuids.push(...rows.map((row) => row.n).sort((a, b) => Number(a) - Number(b)));
        })
        .finally(() => {
          fetching = null;
        });
      await fetching;
    }
    return `L-${spareGuids.shift()!.padStart(6, '0')}`;
  };

  /** A shipper's default terms: its own, else the platform's. */
  const defaultTermsOf = async (organizationId: string): Promise<AccessorialTerms> =>
    (await readers.identity.loadOrganization(organizationId))?.defaultTerms ?? STANDARD_TERMS;

  /**
   * The terms a body asks for: absent, the load's own when editing (else the shipper's defaults);
   * null, no terms; given, each missing field from the shipper's defaults.
   */
  const termsOf = async (
    body: LoadBody,
    organizationId: string,
    current?: AccessorialTerms | null,
  ): Promise<AccessorialTerms | null> => {
    if (body.terms === null) return null;
    if (body.terms === undefined && current !== undefined) return current;
    return completeTerms(body.terms ?? {}, await defaultTermsOf(organizationId));
  };

  const toDetails = (
    body: LoadBody,
    terms: AccessorialTerms | null,
    previous: LoadStop[] = [],
  ): LoadDetails => {
    const { locations, terms: _asked, ...rest } = body;
    const stops: LoadStop[] = locations.map((location) => ({
      id:
        location.id && previous.some((stop) => stop.id === location.id)
          ? location.id
          : randomUUID(),
      locationType: location.locationType,
      address: location.address,
      city: location.city,
      state: location.state,
      name: location.name,
      latitude: location.latitude,
      longitude: location.longitude,
      contactName: location.contactName,
      contactPhone: location.contactPhone,
      number:
        location.locationType === LocationType.Pickup ||
        location.locationType === LocationType.Dropoff
          ? location.number
          : null,
    }));
    return { ...rest, stops, terms };
  };

  const saveLocations = async (
    caller: Caller,
    organizationId: string,
    body: LoadBody,
    now: string,
  ): Promise<LogPosition | null> => {
    const events: LocationSaved[] = body.locations
      .filter((location) => location.saveLocation)
      .map((location) => ({
        type: 'LocationSaved',
        data: {
          organizationId,
          location: {
            id: uuidV5(
              `${organizationId}:${location.name.trim().toLowerCase()}:${location.address.trim().toLowerCase()}`,
              SAVED_LOCATION_NAMESPACE,
            ),
            name: location.name,
            address: location.address,
            city: location.city,
            state: location.state,
            latitude: location.latitude,
            longitude: location.longitude,
            contactName: location.contactName,
            contactPhone: location.contactPhone,
            number: location.number,
            locationType: location.locationType,
          },
          savedBy: caller.actor.userId,
          savedAt: now,
        },
      }));
    if (events.length === 0) return null;
    const result = await store.append(savedLocationsStream(organizationId), events, {
      expectedRevision: 'any',
      metadata: metadataOf(caller, now, null),
    });
    return result.position;
  };

  return {
    async postLoad(caller: Caller, body: LoadBody, now: string) {
      const { actor } = caller;
      await requireActiveOrganization(actor);
      if (!actor.organizationId)
        throw new ForbiddenError(
          'A Superadmin posts loads on behalf of a shipper from its account',
        );
      const loadId = randomUUID();
      const guid = await nextGuid();
      const details = toDetails(body, await termsOf(body, actor.organizationId));
      // A new random id: its stream cannot exist yet, so there is nothing to read before deciding.
      const command: LoadCommand = {
        type: 'PostLoad',
        data: {
          loadId,
          guid,
          organizationId: actor.organizationId,
          userId: actor.userId,
          details,
          now,
        },
      };
      const result = await handleNewStreamCommand<Load, LoadCommand, LoadEvent>(
        store,
        loadStream(loadId),
        loadDecider,
        command,
        metadataOf(caller, now, loadId),
      );
      const saved = await saveLocations(caller, actor.organizationId, body, now);
      return { id: loadId, guid, position: latest(result.position, saved) };
    },

    async updateLoad(caller: Caller, loadId: string, body: LoadBody, now: string) {
      const load = await ownLoad(caller.actor, loadId);
      const details = toDetails(
        body.audience === undefined ? { ...body, audience: load.details.audience ?? null } : body,
        await termsOf(body, load.shipperOrganizationId, load.details.terms ?? null),
        load.details.stops,
      );
      // No bookNowPrice in the body: the load keeps its own (null withdraws it).
      if (body.bookNowPrice === undefined && load.details.bookNowPrice != null)
        details.bookNowPrice = load.details.bookNowPrice;
      const result = await runLoad(
        {
          type: 'UpdateLoad',
          data: { loadId, by: byOf(caller.actor), userId: caller.actor.userId, details, now },
        },
        caller,
        now,
      );
      const saved = await saveLocations(caller, load.shipperOrganizationId, body, now);
      return latest(result.position, saved);
    },

    async extendExpiration(
      caller: Caller,
      loadId: string,
      expiration: string,
      expirationTimezone: LoadDetails['expirationTimezone'] | undefined,
      now: string,
    ) {
      const load = await ownLoad(caller.actor, loadId);
      const zone = expirationTimezone ?? load.details.expirationTimezone;
      const result = await runLoad(
        {
          type: 'ExtendExpiration',
          data: { loadId, by: byOf(caller.actor), expiration, expirationTimezone: zone, now },
        },
        caller,
        now,
      );
      return result.position;
    },

    /** Run by the scheduler: pauses a load whose offer expiration passed with no accepted offer. */
    async expireLoad(loadId: string, now: string) {
      const result = await runLoad({ type: 'ExpireLoad', data: { loadId, now } }, null, now);
      return result.events.length > 0;
    },

    /** Run by the scheduler: opens a preferred-only load to the whole marketplace once its window passed. */
    async openLoadToMarketplace(loadId: string, now: string) {
      const result = await runLoad(
        { type: 'OpenLoadToMarketplace', data: { loadId, now } },
        null,
        now,
      );
      return result.events.length > 0;
    },

    /** The load's side of a cancellation: refused once its tour is on the road. */
    cancel: (
      caller: Caller,
      loadId: string,
      message: string,
      tourStatus: TourStatusId | null,
      now: string,
    ) =>
      runLoad(
        { type: 'CancelLoad', data: { loadId, by: byOf(caller.actor), message, tourStatus, now } },
        caller,
        now,
      ),

    /** The decisive step of an acceptance: the load's expected revision lets exactly one accept win. */
    acceptOffer: (
      caller: Caller,
      load: { loadId: string; by: string | null },
      offer: Pick<SubmittedOffer, 'proposalId' | 'carrierOrganizationId' | 'price'> & {
        terms?: AccessorialTerms | null;
      },
      tourId: string,
      now: string,
    ) =>
      runLoad(
        {
          type: 'AcceptOfferForLoad',
          data: {
            loadId: load.loadId,
            by: load.by,
            proposalId: offer.proposalId,
            carrierOrganizationId: offer.carrierOrganizationId,
            price: offer.price,
            tourId,
            ...(offer.terms === undefined ? {} : { terms: offer.terms }),
            now,
          },
        },
        caller,
        now,
      ),

    /** The decisive step of a Book Now booking: as with an acceptance, the load's expected revision lets one win. */
    book: (
      caller: Caller,
      booking: {
        loadId: string;
        proposalId: string;
        carrierOrganizationId: string;
        userId: string;
      },
      tourId: string,
      now: string,
    ) => runLoad({ type: 'BookLoad', data: { ...booking, tourId, now } }, caller, now),

    signContract: (
      caller: Caller,
      loadId: string,
      offerId: string,
      contractFileId: string,
      now: string,
    ) =>
      runLoad(
        { type: 'SignContract', data: { loadId, proposalId: offerId, contractFileId, now } },
        caller,
        now,
      ),

    completeLoad: (caller: Caller, loadId: string, tourId: string, now: string) =>
      runLoad({ type: 'CompleteLoad', data: { loadId, tourId, now } }, caller, now),
  };
}
export type LoadCommands = ReturnType<typeof createLoadCommands>;
export type { PostedLoad };
