/**
 * A shipper's preferred and blocked carriers (stream `carrierpreferences-<organizationId>`); this
 * module is its only writer. Which ids are Active carriers is read from the organizations read model.
 */
import type { Kysely } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import {
  carrierPreferencesDecider,
  carrierPreferencesStream,
  type CarrierPreferences,
  type CarrierPreferencesEvent,
  type SetCarrierPreferences,
} from '../../domain/organizations/carrierPreferences.ts';
import type { CarrierPreferencesBody } from '../../domain/schemas/carrierPreferences.schema.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { organizationsById } from '../../projections/organizations/organizations.queries.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';

/** A shipper's two lists as its stream stands now. */
export async function readCarrierPreferences(
  store: EventStore,
  shipperOrganizationId: string,
): Promise<CarrierPreferences> {
  const { events } = await store.readStream<CarrierPreferencesEvent>(
    carrierPreferencesStream(shipperOrganizationId),
  );
  return events.reduce(carrierPreferencesDecider.evolve, carrierPreferencesDecider.initialState());
}

export function createCarrierPreferenceCommands(deps: { store: EventStore; db: Kysely<DB> }) {
  const { store, db } = deps;
  return {
    /** Replaces the caller's shipper organization's two lists. */
    async setPreferences(caller: Caller, body: CarrierPreferencesBody, now: string) {
      const { actor } = caller;
      if (!actor.organizationId)
        throw new ForbiddenError('Preferred and blocked carriers belong to a shipper organization');
      const asked = [...new Set([...body.preferred, ...body.blocked])];
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
      const rows = await organizationsById(
        db,
        asked.filter((id) => uuid.test(id)),
      );
      const activeCarriers = new Set(
        rows
          .filter((row) => row.type === 'Carrier' && row.status === GenericStatus.Active)
          .map((row) => row.id),
      );
      const command: SetCarrierPreferences = {
        type: 'SetCarrierPreferences',
        data: {
          organizationId: actor.organizationId,
          userId: actor.userId,
          preferred: body.preferred,
          blocked: body.blocked,
          activeCarriers,
          now,
        },
      };
      return handleCommand(
        store,
        carrierPreferencesStream(actor.organizationId),
        carrierPreferencesDecider,
        command,
        metadataOf(caller, now),
      );
    },
  };
}
