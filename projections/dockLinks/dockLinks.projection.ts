import { sql } from 'kysely';
import type { DockLinkCreated, DockLinkRevoked } from '../../domain/tours/tour.types.ts';
import { defineProjection } from '../projection.ts';

/** The tours' dock links, for the public dock page. */
export const dockLinksProjection = defineProjection({
  name: 'dockLinks',
  version: 1,
  tables: ['dock_links_view'],
  handles: ['DockLinkCreated', 'DockLinkRevoked'],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as DockLinkCreated | DockLinkRevoked;
      if (event.type === 'DockLinkCreated') {
        const d = event.data;
        await sql`INSERT INTO dock_links_view (id, tour_id, token_hash, organization_id, created_by, expires_at, created_at)
          VALUES (${d.linkId}, ${d.tourId}, ${d.tokenHash}, ${d.organizationId}, ${d.createdBy}, ${d.expiresAt}, ${d.createdAt})
          ON CONFLICT (id) DO NOTHING`.execute(trx);
      } else if (event.type === 'DockLinkRevoked') {
        await sql`UPDATE dock_links_view SET revoked_at = ${event.data.revokedAt} WHERE id = ${event.data.linkId} AND revoked_at IS NULL`.execute(
          trx,
        );
      }
    }
  },
});
