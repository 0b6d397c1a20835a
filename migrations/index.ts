import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as eventStore from './2026_11_22_0900_event_store.ts';
import * as authFilesMail from './2026_11_22_1000_auth_files_mail.ts';
import * as identityReadModels from './2026_11_22_1100_identity_read_models.ts';
import * as marketplaceReadModels from './2026_11_22_1200_marketplace_read_models.ts';
import * as savedSearches from './2026_11_22_1300_saved_searches.ts';
import * as organizationServices from './2026_11_22_1400_organization_services.ts';
import * as contentAndLeads from './2026_11_22_1500_content_and_leads.ts';
import * as idempotencyKeys from './2026_11_22_1600_idempotency_keys.ts';
import * as tourPositionsRevision from './2026_11_22_1700_tour_positions_revision.ts';
import * as positionBatches from './2026_11_26_1300_position_batches.ts';
import * as loadsViewTourIndex from './2026_11_23_0900_loads_view_tour_index.ts';
import * as projectionParking from './2026_11_25_1000_projection_parking.ts';
import * as fileOwners from './2026_11_25_1200_file_owners.ts';
import * as webhooks from './2026_11_25_1500_webhooks.ts';
import * as tourShares from './2026_11_25_1400_tour_shares.ts';
import * as laneRates from './2026_11_26_1100_lane_rates.ts';
import * as clusterSecrets from './2026_11_26_1200_cluster_secrets.ts';
import * as eventsWithoutCorrelationIndex from './2026_11_26_1400_events_without_correlation_index.ts';
import * as webhookReplays from './2026_11_27_1000_webhook_replays.ts';
import * as reactorCheckpoints from './2026_11_28_1000_reactor_checkpoints.ts';
import * as carrierAuthority from './2026_11_29_1000_carrier_authority.ts';
import * as dockLinks from './2026_11_29_1000_dock_links.ts';
import * as accessorialClaims from './2026_11_29_1300_accessorial_claims.ts';
import * as invoices from './2026_11_29_1700_invoices.ts';
import * as detentionFigures from './2026_11_29_1400_detention_figures.ts';
import * as marketplaceTerms from './2026_11_29_1400_marketplace_terms.ts';
import * as bookNow from './2026_11_29_1500_book_now.ts';
import * as payerInvoices from './2026_11_29_1800_payer_invoices.ts';
import * as carrierPreferences from './2026_11_29_1600_carrier_preferences.ts';
import * as edi from './2026_11_29_1900_edi.ts';
import * as facilities from './2026_11_29_1900_facilities.ts';
import * as knownDevices from './2026_11_29_1000_known_devices.ts';
import * as trustFlags from './2026_11_29_1100_trust_flags.ts';
import * as organizationContactChanges from './2026_11_29_1200_organization_contact_changes.ts';

/** Every migration, in order. Date-prefixed names; a landed migration never changes. */
const migrations: Record<string, Migration> = {
  '2026_11_22_0900_event_store': eventStore,
  '2026_11_22_1000_auth_files_mail': authFilesMail,
  '2026_11_22_1100_identity_read_models': identityReadModels,
  '2026_11_22_1200_marketplace_read_models': marketplaceReadModels,
  '2026_11_22_1300_saved_searches': savedSearches,
  '2026_11_22_1400_organization_services': organizationServices,
  '2026_11_22_1500_content_and_leads': contentAndLeads,
  '2026_11_22_1600_idempotency_keys': idempotencyKeys,
  '2026_11_22_1700_tour_positions_revision': tourPositionsRevision,
  '2026_11_23_0900_loads_view_tour_index': loadsViewTourIndex,
  '2026_11_25_1000_projection_parking': projectionParking,
  '2026_11_25_1200_file_owners': fileOwners,
  '2026_11_25_1500_webhooks': webhooks,
  '2026_11_25_1400_tour_shares': tourShares,
  '2026_11_26_1100_lane_rates': laneRates,
  '2026_11_26_1200_cluster_secrets': clusterSecrets,
  '2026_11_26_1300_position_batches': positionBatches,
  '2026_11_26_1400_events_without_correlation_index': eventsWithoutCorrelationIndex,
  '2026_11_27_1000_webhook_replays': webhookReplays,
  '2026_11_28_1000_reactor_checkpoints': reactorCheckpoints,
  '2026_11_29_1000_carrier_authority': carrierAuthority,
  '2026_11_29_1000_dock_links': dockLinks,
  '2026_11_29_1000_known_devices': knownDevices,
  '2026_11_29_1100_trust_flags': trustFlags,
  '2026_11_29_1200_organization_contact_changes': organizationContactChanges,
  '2026_11_29_1300_accessorial_claims': accessorialClaims,
  '2026_11_29_1400_detention_figures': detentionFigures,
  '2026_11_29_1400_marketplace_terms': marketplaceTerms,
  '2026_11_29_1500_book_now': bookNow,
  '2026_11_29_1600_carrier_preferences': carrierPreferences,
  '2026_11_29_1700_invoices': invoices,
  '2026_11_29_1800_payer_invoices': payerInvoices,
  '2026_11_29_1900_edi': edi,
  '2026_11_29_1900_facilities': facilities,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Migrates up to and including `name` (a test's database as it stood before a later migration). */
export async function migrateUpTo<T>(db: Kysely<T>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}
