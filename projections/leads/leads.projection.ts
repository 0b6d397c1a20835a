import { sql } from 'kysely';
import type { InterestRegistered } from '../../domain/leads/lead.types.ts';
import { defineProjection } from '../projection.ts';

/** Leads (`leads_view`): one row per address that registered interest on the landing page. */
export const leadsProjection = defineProjection({
  name: 'leads',
  version: 1,
  tables: ['leads_view'],
  handles: ['InterestRegistered'],
  async apply(trx, events) {
    for (const { data } of events as unknown as InterestRegistered[]) {
      await sql`INSERT INTO leads_view (id, email, registered_at) VALUES (${data.leadId}, ${data.email}, ${data.registeredAt})
        ON CONFLICT (id) DO NOTHING`.execute(trx);
    }
  },
});
