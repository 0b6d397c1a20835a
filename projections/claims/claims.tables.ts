import type { ClaimEvidence } from '../../domain/claims/claim.types.ts';
import type { Json, Timestamp } from '../../storage/columns.ts';

/** `claims_view` (migration 2026_11_29_1300_accessorial_claims): a tour's accessorial claims. */
export type ClaimsViewTable = {
  id: string;
  tour_id: string;
  load_id: string;
  shipper_organization_id: string;
  carrier_organization_id: string;
  kind: string;
  stop_index: number | null;
  minutes: number;
  amount: number;
  status: string;
  evidence: Json<ClaimEvidence>;
  note: string | null;
  dispute_reason: string | null;
  answer: string | null;
  approved_by: string | null;
  settled_amount: number | null;
  settlement_note: string | null;
  claimed_at: Timestamp;
  due_at: Timestamp;
  updated_at: Timestamp;
};

export type ClaimsTables = { claims_view: ClaimsViewTable };
