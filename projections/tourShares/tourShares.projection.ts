import { sql } from 'kysely';
import type { TourShared, TourShareRevoked } from '../../domain/tours/tour.types.ts';
import { defineProjection } from '../projection.ts';

/** The tours' tracking links, for the public tracking page and the share dialog. */
export const tourSharesProjection = defineProjection({
  name: 'tourShares',
  version: 1,
  tables: ['tour_shares_view'],
  handles: ['TourShared', 'TourShareRevoked'],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as TourShared | TourShareRevoked;
      if (event.type === 'TourShared') {
        const d = event.data;
        await sql`INSERT INTO tour_shares_view (id, tour_id, token_hash, organization_id, shared_by, expires_at, created_at)
          VALUES (${d.shareId}, ${d.tourId}, ${d.tokenHash}, ${d.organizationId}, ${d.sharedBy}, ${d.expiresAt}, ${d.sharedAt})
          ON CONFLICT (id) DO NOTHING`.execute(trx);
      } else if (event.type === 'TourShareRevoked') {
        await sql`UPDATE tour_shares_view SET revoked_at = ${event.data.revokedAt} WHERE id = ${event.data.shareId} AND revoked_at IS NULL`.execute(
          trx,
        );
      }
    }
  },
});
