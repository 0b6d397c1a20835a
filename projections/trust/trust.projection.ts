import { sql } from 'kysely';
import type {
  CarrierAuthorityChanged,
  CarrierAuthorityChecked,
  OrganizationContactChangeRequested,
} from '../../domain/organizations/organization.ts';
import type { PickupHeld, PickupReleased, TourAssigned } from '../../domain/tours/tour.types.ts';
import { defineProjection } from '../projection.ts';

type TrustEvent =
  | CarrierAuthorityChecked
  | CarrierAuthorityChanged
  | TourAssigned
  | PickupReleased
  | PickupHeld
  | OrganizationContactChangeRequested;

/**
 * The trust flags' own facts (docs/domain.md "Trust flags"): a carrier's last recorded authority, a
 * tour's tractor as its last assignment named it and its last dock outcome, and who requested a
 * change of an organization's contact when. The flags themselves are weighed on read
 * (`trust.queries.ts`), with the booking, the driver and the trucks from the other read models.
 */
export const trustProjection = defineProjection({
  name: 'trust',
  version: 1,
  tables: ['trust_carriers_view', 'trust_tours_view', 'trust_contact_changes_view'],
  handles: [
    'CarrierAuthorityChecked',
    'CarrierAuthorityChanged',
    'TourAssigned',
    'PickupReleased',
    'PickupHeld',
    'OrganizationContactChangeRequested',
  ],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as TrustEvent;
      switch (event.type) {
        case 'CarrierAuthorityChecked':
        case 'CarrierAuthorityChanged': {
          const d = event.data;
          await sql`INSERT INTO trust_carriers_view (organization_id, authority_status, insurance_on_file, checked_at)
            VALUES (${d.organizationId}, ${d.status}, ${d.insuranceOnFile}, ${d.checkedAt})
            ON CONFLICT (organization_id) DO UPDATE SET authority_status = EXCLUDED.authority_status,
              insurance_on_file = EXCLUDED.insurance_on_file, checked_at = EXCLUDED.checked_at`.execute(
            trx,
          );
          break;
        }
        case 'TourAssigned': {
          const tractor = event.data.tractorNumber?.trim() || null;
          await sql`INSERT INTO trust_tours_view (tour_id, tractor_number) VALUES (${event.data.tourId}, ${tractor})
            ON CONFLICT (tour_id) DO UPDATE SET tractor_number = EXCLUDED.tractor_number`.execute(
            trx,
          );
          break;
        }
        case 'PickupReleased':
        case 'PickupHeld': {
          const state = event.type === 'PickupReleased' ? 'released' : 'held';
          await sql`INSERT INTO trust_tours_view (tour_id, dock_state, dock_at) VALUES (${event.data.tourId}, ${state}, ${event.data.at})
            ON CONFLICT (tour_id) DO UPDATE SET dock_state = EXCLUDED.dock_state, dock_at = EXCLUDED.dock_at`.execute(
            trx,
          );
          break;
        }
        case 'OrganizationContactChangeRequested': {
          const d = event.data;
          await sql`INSERT INTO trust_contact_changes_view (change_id, organization_id, requested_by, requested_at)
            VALUES (${d.changeId}, ${d.organizationId}, ${d.requestedBy}, ${d.requestedAt})
            ON CONFLICT (change_id) DO NOTHING`.execute(trx);
          break;
        }
        default:
          break;
      }
    }
  },
});
