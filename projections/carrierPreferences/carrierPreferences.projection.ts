import { sql } from 'kysely';
import type { CarrierPreferencesEvent } from '../../domain/organizations/carrierPreferences.ts';
import { defineProjection } from '../projection.ts';

/** Every shipper's preferred and blocked carriers, for GET carriers/preferences and the marketplace's rule. */
export const carrierPreferencesProjection = defineProjection({
  name: 'carrierPreferences',
  version: 1,
  tables: ['carrier_preferences_view'],
  handles: ['CarrierPreferencesChanged'],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as CarrierPreferencesEvent;
      if (event.type !== 'CarrierPreferencesChanged') continue;
      const { organizationId, preferred, blocked } = event.data;
      await sql`DELETE FROM carrier_preferences_view WHERE shipper_organization_id = ${organizationId}`.execute(
        trx,
      );
      const rows = [
        ...preferred.map((id, position) => ({ id, list: 'preferred', position })),
        ...blocked.map((id, position) => ({ id, list: 'blocked', position })),
      ];
      if (rows.length === 0) continue;
      await trx
        .insertInto('carrier_preferences_view')
        .values(
          rows.map((row) => ({
            shipper_organization_id: organizationId,
            carrier_organization_id: row.id,
            list: row.list as 'preferred' | 'blocked',
            position: row.position,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  },
});
