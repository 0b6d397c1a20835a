import type { Timestamp } from '../../storage/columns.ts';

/** `dock_links_view` (migration 2026_11_29_1000_dock_links): a tour's dock links, by the hash of their token. */
export type DockLinksViewTable = {
  id: string;
  tour_id: string;
  token_hash: string;
  organization_id: string;
  created_by: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
};

export type DockLinksTables = { dock_links_view: DockLinksViewTable };
