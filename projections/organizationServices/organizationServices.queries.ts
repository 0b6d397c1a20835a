import type { Kysely, NotNull } from 'kysely';
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

/**
 * The tours on the road (Dispatched, In Transit) with an ELD truck name, each with every service
 * its carrier installed: one row per tour and service, services oldest first.
 */
export const trackedToursWithServices = (db: Kysely<DB>) =>
  db
    .selectFrom('tours_view as t')
    .innerJoin('organization_services_view as s', 's.organization_id', 't.carrier_organization_id')
    .select([
      't.id as tour_id',
      't.eld_truck_name',
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
    .where('t.eld_truck_name', 'is not', null)
    .$narrowType<{ eld_truck_name: NotNull }>()
    .orderBy('s.installed_at')
    .execute();
