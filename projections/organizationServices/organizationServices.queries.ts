import { sql, type Kysely, type NotNull } from 'kysely';
import { TourStatus } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import type { InstalledServiceRow } from './organizationServices.tables.ts';

/** An organization's installed services, oldest first. */
export const installedServicesOf = (
  db: Kysely<DB>,
  organizationId: string,
): Promise<InstalledServiceRow[]> =>
  db
    .selectFrom('organization_services_view')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('installed_at')
    .execute();

/** The offer's ELD truck name, else the assigned tractor number; null when neither is given. */
const truckName = sql<
  string | null
>`coalesce(nullif(trim(t.eld_truck_name), ''), nullif(trim(tt.tractor_number), ''))`;

/**
 * The tours on the road (Dispatched, In Transit) with an ELD truck name, each with every service
 * its carrier installed: one row per tour and service, services oldest first. The truck's name is
 * the one the accepted offer gave; without one, the tractor number the carrier recorded when it
 * assigned the driver (the `trust` read model's), as fleets name their trucks by that number.
 */
export const trackedToursWithServices = (db: Kysely<DB>) =>
  db
    .selectFrom('tours_view as t')
    .innerJoin('organization_services_view as s', 's.organization_id', 't.carrier_organization_id')
    .leftJoin('trust_tours_view as tt', 'tt.tour_id', 't.id')
    .select([
      't.id as tour_id',
      truckName.as('eld_truck_name'),
      't.carrier_organization_id',
      's.id',
      's.organization_id',
      's.service_id',
      's.client_id',
      's.sealed_secret',
      's.installed_by',
      's.installed_at',
      's.updated_at',
    ])
    .where('t.status', 'in', [TourStatus.Dispatched, TourStatus.InTransit])
    .where(truckName, 'is not', null)
    .$narrowType<{ eld_truck_name: NotNull }>()
    .orderBy('s.installed_at')
    .execute();
