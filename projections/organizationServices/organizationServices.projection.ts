import { sql } from 'kysely';
import type { OrganizationServiceEvent } from '../../domain/services/organizationService.types.ts';
import { defineProjection } from '../projection.ts';

/** The organizations' installed ELD services, as the catalogue, the trucks routes and the poller read them. */
export const organizationServicesProjection = defineProjection({
  name: 'organizationServices',
  version: 1,
  tables: ['organization_services_view'],
  handles: ['ServiceInstalled', 'ServiceCredentialsUpdated'],
  async apply(trx, events) {
    for (const event of events as unknown as OrganizationServiceEvent[]) {
      if (event.type === 'ServiceInstalled') {
        const d = event.data;
        await sql`INSERT INTO organization_services_view (id, organization_id, service_id, client_id, sealed_secret, installed_by, installed_at, updated_at)
          VALUES (${d.organizationServiceId}, ${d.organizationId}, ${d.serviceId}, ${d.clientId}, ${d.sealedSecret}, ${d.installedBy}, ${d.installedAt}, ${d.installedAt})
          ON CONFLICT (id) DO NOTHING`.execute(trx);
      } else {
        const d = event.data;
        await sql`UPDATE organization_services_view SET client_id = ${d.clientId}, sealed_secret = ${d.sealedSecret}, updated_at = ${d.updatedAt}
          WHERE id = ${d.organizationServiceId}`.execute(trx);
      }
    }
  },
});
