import { laneRatesProjection } from './laneRates/laneRates.projection.ts';
import { leadsProjection } from './leads/leads.projection.ts';
import { marketplaceProjection } from './marketplace/marketplace.projection.ts';
import { organizationsProjection } from './organizations/organizations.projection.ts';
import type { Projection } from './projection.ts';
import { organizationServicesProjection } from './organizationServices/organizationServices.projection.ts';
import { savedSearchesProjection } from './savedSearches/savedSearches.projection.ts';
import { tourChatProjection } from './tourChat/tourChat.projection.ts';
import { tourPositionsProjection } from './tourPositions/tourPositions.projection.ts';
import { tourSharesProjection } from './tourShares/tourShares.projection.ts';
import { claimsProjection } from './claims/claims.projection.ts';
import { payerFiguresProjection } from './payerFigures/payerFigures.projection.ts';
import { invoicesProjection } from './invoices/invoices.projection.ts';
import { detentionFiguresProjection } from './detentionFigures/detentionFigures.projection.ts';
import { dockLinksProjection } from './dockLinks/dockLinks.projection.ts';
import { trustProjection } from './trust/trust.projection.ts';
import { organizationContactChangesProjection } from './organizationContactChanges/organizationContactChanges.projection.ts';
import { usersProjection } from './users/users.projection.ts';
import { carrierPreferencesProjection } from './carrierPreferences/carrierPreferences.projection.ts';
import { facilitiesProjection } from './facilities/facilities.projection.ts';

/** Every read model the server keeps. */
export const allProjections: Projection[] = [
  usersProjection,
  organizationsProjection,
  marketplaceProjection,
  tourPositionsProjection,
  tourChatProjection,
  savedSearchesProjection,
  organizationServicesProjection,
  leadsProjection,
  tourSharesProjection,
  laneRatesProjection,
  dockLinksProjection,
  trustProjection,
  organizationContactChangesProjection,
  claimsProjection,
  invoicesProjection,
  detentionFiguresProjection,
  carrierPreferencesProjection,
  payerFiguresProjection,
  facilitiesProjection,
];
