import type { Selectable } from 'kysely';
import type { Timestamp } from '../../storage/columns.ts';

/** `tour_shares_view` (migration 2026_11_25_1400_tour_shares): a tour's tracking links, by the hash of their token. */
export type TourSharesViewTable = {
  id: string;
  tour_id: string;
  token_hash: string;
  organization_id: string;
  shared_by: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
};

export type TourSharesTables = { tour_shares_view: TourSharesViewTable };

export type TrackingLinkRow = Selectable<TourSharesViewTable>;
