import type { OrganizationContact } from '../../domain/organizations/organization.ts';
import type { Json, NullableTimestamp, Timestamp } from '../../storage/columns.ts';

/**
 * `organization_contact_changes_view` (migration 2026_11_29_1200_organization_contact_changes): the
 * held changes of organizations' contacts, by the hash of the old contact's cancel link.
 */
export type OrganizationContactChangesViewTable = {
  id: string;
  organization_id: string;
  token_hash: string;
  requested_by: string;
  requested_at: Timestamp;
  pending_until: Timestamp;
  contact: Json<OrganizationContact>;
  previous: Json<OrganizationContact>;
  /** 'pending', 'cancelled' or 'applied'. */
  status: string;
  cancelled_at: NullableTimestamp;
  cancelled_by: string | null;
  applied_at: NullableTimestamp;
};

export type OrganizationContactChangesTables = {
  organization_contact_changes_view: OrganizationContactChangesViewTable;
};
