import type { Selectable } from 'kysely';
import type { Timestamp } from '../../storage/columns.ts';

/** `leads_view` (migration 2026_11_22_1500_content_and_leads): who asked to hear from us. */
export type LeadsViewTable = {
  id: string;
  email: string;
  registered_at: Timestamp;
};

export type LeadsTables = { leads_view: LeadsViewTable };

export type LeadRow = Selectable<LeadsViewTable>;
