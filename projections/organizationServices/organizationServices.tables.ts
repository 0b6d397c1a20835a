import type { Selectable } from 'kysely';
import type { Timestamp } from '../../storage/columns.ts';

/** `organization_services_view` (migration 2026_11_22_1400_organization_services): the secret only sealed. */
export type OrganizationServicesViewTable = {
  id: string;
  organization_id: string;
  service_id: string;
  client_id: string | null;
  sealed_secret: string;
  installed_by: string | null;
  installed_at: Timestamp;
  updated_at: Timestamp;
};

export type OrganizationServicesTables = {
  organization_services_view: OrganizationServicesViewTable;
};

export type InstalledServiceRow = Selectable<OrganizationServicesViewTable>;
