import { sql } from 'kysely';
import type {
  OrganizationContactChanged,
  OrganizationContactChangeCancelled,
  OrganizationContactChangeRequested,
} from '../../domain/organizations/organization.ts';
import { defineProjection } from '../projection.ts';

type Handled =
  | OrganizationContactChangeRequested
  | OrganizationContactChangeCancelled
  | OrganizationContactChanged;

/**
 * The held changes of organizations' contacts: the cancel link finds its change by the hash of its
 * token, and the scheduler finds the pending ones that are due.
 */
export const organizationContactChangesProjection = defineProjection({
  name: 'organizationContactChanges',
  version: 1,
  tables: ['organization_contact_changes_view'],
  handles: [
    'OrganizationContactChangeRequested',
    'OrganizationContactChangeCancelled',
    'OrganizationContactChanged',
  ],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      if (event.type === 'OrganizationContactChangeRequested') {
        const d = event.data;
        await sql`INSERT INTO organization_contact_changes_view
            (id, organization_id, token_hash, requested_by, requested_at, pending_until, contact, previous)
          VALUES (${d.changeId}, ${d.organizationId}, ${d.tokenHash}, ${d.requestedBy}, ${d.requestedAt},
            ${d.pendingUntil}, ${JSON.stringify(d.contact)}::jsonb, ${JSON.stringify(d.previous)}::jsonb)
          ON CONFLICT (id) DO NOTHING`.execute(trx);
      } else if (event.type === 'OrganizationContactChangeCancelled') {
        const d = event.data;
        await sql`UPDATE organization_contact_changes_view
          SET status = 'cancelled', cancelled_at = ${d.cancelledAt}, cancelled_by = ${d.cancelledBy}
          WHERE id = ${d.changeId} AND status = 'pending'`.execute(trx);
      } else if (event.type === 'OrganizationContactChanged' && event.data.changeId) {
        await sql`UPDATE organization_contact_changes_view
          SET status = 'applied', applied_at = ${event.data.changedAt}
          WHERE id = ${event.data.changeId} AND status = 'pending'`.execute(trx);
      }
    }
  },
});
