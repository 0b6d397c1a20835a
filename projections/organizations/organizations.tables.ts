import type { Selectable } from 'kysely';
import type { CarrierDocuments, VehicleCount } from '../../domain/organizations/organization.ts';
import type { Json, NullableInt8, Timestamp } from '../../storage/columns.ts';

/** `organizations_view` (migration 2026_11_22_1100_identity_read_models): one row per organization. */
export type OrganizationsViewTable = {
  id: string;
  type: string;
  name: string;
  address: string;
  person: string;
  email: string;
  phone: string;
  status: number;
  mc_number: NullableInt8;
  dot_number: NullableInt8;
  eld_provider: string | null;
  trucks: Json<VehicleCount[]>;
  trailers: Json<VehicleCount[]>;
  driver_teams: Json<VehicleCount[]>;
  /** `{}` for a shipper. */
  documents: Json<Partial<CarrierDocuments>>;
  insured_amount: number | null;
  signature_file_id: string | null;
  registered_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type OrganizationsTables = { organizations_view: OrganizationsViewTable };

export type OrganizationRow = Selectable<OrganizationsViewTable>;
