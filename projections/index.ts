import { laneRatesProjection } from './laneRates/laneRates.projection.ts';
import { leadsProjection } from './leads/leads.projection.ts';
import { marketplaceProjection } from './marketplace/marketplace.projection.ts';
import {
  tourChatProjection,
  tourPositionsProjection,
} from './marketplace/tourActivity.projection.ts';
import { organizationsProjection } from './organizations/organizations.projection.ts';
import type { Projection } from './projection.ts';
import { savedSearchesProjection } from './searches/searches.projection.ts';
import { organizationServicesProjection } from './services/organizationServices.projection.ts';
import { tourSharesProjection } from './tourShares/tourShares.projection.ts';
import { usersProjection } from './users/users.projection.ts';

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
];
