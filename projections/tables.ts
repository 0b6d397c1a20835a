/**
 * The read models' tables in the database type: storage declares `DB` with the tables it owns (the
 * event store's and the server's), and each read model's tables, declared beside its projection,
 * join it here, so that one `Kysely<DB>` reaches every table.
 */
import type { LaneRatesTables } from './laneRates/laneRates.tables.ts';
import type { LeadsTables } from './leads/leads.tables.ts';
import type { MarketplaceTables } from './marketplace/marketplace.tables.ts';
import type { OrganizationServicesTables } from './organizationServices/organizationServices.tables.ts';
import type { OrganizationsTables } from './organizations/organizations.tables.ts';
import type { SavedSearchesTables } from './savedSearches/savedSearches.tables.ts';
import type { TourChatTables } from './tourChat/tourChat.tables.ts';
import type { TourPositionsTables } from './tourPositions/tourPositions.tables.ts';
import type { TourSharesTables } from './tourShares/tourShares.tables.ts';
import type { ClaimsTables } from './claims/claims.tables.ts';
import type { PayerFiguresTables } from './payerFigures/payerFigures.tables.ts';
import type { InvoicesTables } from './invoices/invoices.tables.ts';
import type { DetentionFiguresTables } from './detentionFigures/detentionFigures.tables.ts';
import type { DockLinksTables } from './dockLinks/dockLinks.tables.ts';
import type { TrustTables } from './trust/trust.tables.ts';
import type { OrganizationContactChangesTables } from './organizationContactChanges/organizationContactChanges.tables.ts';
import type { UsersTables } from './users/users.tables.ts';
import type { CarrierPreferencesTables } from './carrierPreferences/carrierPreferences.tables.ts';
import type { FacilitiesTables } from './facilities/facilities.tables.ts';

declare module '../storage/schema.ts' {
  interface DB
    extends UsersTables,
      OrganizationsTables,
      MarketplaceTables,
      TourPositionsTables,
      TourChatTables,
      SavedSearchesTables,
      OrganizationServicesTables,
      LeadsTables,
      TourSharesTables,
      LaneRatesTables,
      DockLinksTables,
      TrustTables,
      OrganizationContactChangesTables,
      ClaimsTables,
      InvoicesTables,
      DetentionFiguresTables,
      CarrierPreferencesTables,
      PayerFiguresTables,
      FacilitiesTables {}
}
