import type { NullableTimestamp, Timestamp } from '../../storage/columns.ts';

/** `trust_carriers_view` (migration 2026_11_29_1100_trust_flags): a carrier's last recorded authority. */
export type TrustCarriersViewTable = {
  organization_id: string;
  authority_status: string;
  insurance_on_file: boolean;
  checked_at: Timestamp;
};

/** `trust_tours_view`: a tour's tractor as its last assignment named it, and its last dock outcome. */
export type TrustToursViewTable = {
  tour_id: string;
  tractor_number: string | null;
  dock_state: 'released' | 'held' | null;
  dock_at: NullableTimestamp;
};

/** `trust_contact_changes_view`: each change of an organization's contact a user requested. */
export type TrustContactChangesViewTable = {
  change_id: string;
  organization_id: string;
  requested_by: string;
  requested_at: Timestamp;
};

export type TrustTables = {
  trust_carriers_view: TrustCarriersViewTable;
  trust_tours_view: TrustToursViewTable;
  trust_contact_changes_view: TrustContactChangesViewTable;
};
