import { sql } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import type {
  CarrierProfile,
  OrganizationEvent,
  ShipperProfile,
} from '../../domain/organizations/organization.ts';
import { defineProjection } from '../projection.ts';

const carrierColumns = (profile: CarrierProfile | null) => ({
  mc: profile?.mcNumber ?? null,
  dot: profile?.dotNumber ?? null,
  eld: profile?.eldProvider ?? null,
  trucks: JSON.stringify(profile?.trucks ?? []),
  trailers: JSON.stringify(profile?.trailers ?? []),
  teams: JSON.stringify(profile?.driverTeams ?? []),
  documents: JSON.stringify(profile?.documents ?? {}),
});
const shipperColumns = (profile: ShipperProfile | null) => ({
  insured: profile?.insuredAmount ?? null,
  signature: profile?.signatureFileId ?? null,
});

/** Organizations with their contact, profile and status, for the administration lists and the account. */
export const organizationsProjection = defineProjection({
  name: 'organizations',
  version: 1,
  tables: ['organizations_view'],
  handles: [
    'OrganizationRegistered',
    'OrganizationContactChanged',
    'CarrierProfileChanged',
    'ShipperProfileChanged',
    'OrganizationActivated',
    'OrganizationBlocked',
    'OrganizationRegistrationLapsed',
  ],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as OrganizationEvent;
      switch (event.type) {
        case 'OrganizationRegistered': {
          const d = event.data;
          const c = carrierColumns(d.carrier);
          const s = shipperColumns(d.shipper);
          await sql`INSERT INTO organizations_view (id, type, name, address, person, email, phone, status, mc_number, dot_number, eld_provider,
              trucks, trailers, driver_teams, documents, insured_amount, signature_file_id, registered_by, created_at, updated_at)
            VALUES (${d.organizationId}, ${d.type}, ${d.name}, ${d.contact.address}, ${d.contact.person}, ${d.contact.email}, ${d.contact.phone}, ${d.status},
              ${c.mc}, ${c.dot}, ${c.eld}, ${c.trucks}::jsonb, ${c.trailers}::jsonb, ${c.teams}::jsonb, ${c.documents}::jsonb, ${s.insured}, ${s.signature},
              ${d.registeredBy}, ${d.registeredAt}, ${d.registeredAt})
            ON CONFLICT (id) DO NOTHING`.execute(trx);
          break;
        }
        case 'OrganizationContactChanged': {
          const d = event.data;
          await sql`UPDATE organizations_view SET name = ${d.name}, address = ${d.contact.address}, person = ${d.contact.person}, email = ${d.contact.email},
            phone = ${d.contact.phone}, updated_at = ${d.changedAt} WHERE id = ${d.organizationId}`.execute(
            trx,
          );
          break;
        }
        case 'CarrierProfileChanged': {
          const c = carrierColumns(event.data.profile);
          await sql`UPDATE organizations_view SET mc_number = ${c.mc}, dot_number = ${c.dot}, eld_provider = ${c.eld}, trucks = ${c.trucks}::jsonb,
            trailers = ${c.trailers}::jsonb, driver_teams = ${c.teams}::jsonb, documents = ${c.documents}::jsonb, updated_at = ${event.data.changedAt}
            WHERE id = ${event.data.organizationId}`.execute(trx);
          break;
        }
        case 'ShipperProfileChanged': {
          const s = shipperColumns(event.data.profile);
          await sql`UPDATE organizations_view SET insured_amount = ${s.insured}, signature_file_id = ${s.signature}, updated_at = ${event.data.changedAt}
            WHERE id = ${event.data.organizationId}`.execute(trx);
          break;
        }
        case 'OrganizationActivated':
          await sql`UPDATE organizations_view SET status = ${GenericStatus.Active}, updated_at = ${event.data.activatedAt} WHERE id = ${event.data.organizationId}`.execute(
            trx,
          );
          break;
        case 'OrganizationBlocked':
          await sql`UPDATE organizations_view SET status = ${GenericStatus.Blocked}, updated_at = ${event.data.blockedAt} WHERE id = ${event.data.organizationId}`.execute(
            trx,
          );
          break;
        case 'OrganizationRegistrationLapsed':
          await sql`DELETE FROM organizations_view WHERE id = ${event.data.organizationId}`.execute(
            trx,
          );
          break;
        default:
          break;
      }
    }
  },
});
