/** A tour's state, as `tour.evolve.ts` folds it from the tour's events. */
import type { TourStatusId } from '../catalog.ts';
import type { PickupHoldReason, ProofFile, RatingEntry, TourStop } from './tour.events.ts';

export type OpenedTour = {
  exists: true;
  tourId: string;
  loadId: string;
  loadGuid: string;
  proposalId: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  price: number;
  eldTruckName: string | null;
  stops: TourStop[];
  status: TourStatusId;
  assigneeId: string | null;
  assigneeName: string | null;
  contractFileId: string | null;
  /** The stop the truck is inside (geofence), if any. */
  insideStopId: string | null;
  arrivedStopIds: string[];
  departedStopIds: string[];
  ratings: { shipper: RatingEntry[] | null; carrier: RatingEntry[] | null };
  /** The tracking links not revoked (expired ones included: expiry is a matter of the clock), with the organization that made each. */
  shares: { shareId: string; organizationId: string }[];
  /** The truck the carrier assigned with the driver (null when not given). */
  tractorNumber?: string | null;
  trailerNumber?: string | null;
  /** The assigned driver's release-code secret, sealed (absent for assignments made before release codes). */
  sealedReleaseSecret?: string | null;
  /** The dock links, revoked ones included, with their tries and the last outcome. */
  dockLinks?: DockLink[];
  /** The proofs of delivery, oldest first. */
  proofs: ProofOfDelivery[];
  /** When the shipper confirmed the delivery on the proof (absent or null: not yet). */
  deliveryConfirmedAt?: string | null;
  openedAt: string;
  updatedAt: string;
};
export type Tour = { exists: false } | OpenedTour;
export type DockLink = {
  linkId: string;
  organizationId: string;
  expiresAt: string;
  revoked: boolean;
  attempts: number;
  state: 'waiting' | 'released' | 'held';
  /** The reasons of the last hold (none unless held). */
  reasons?: PickupHoldReason[];
};
export type ProofOfDelivery = {
  proofId: string;
  receivedBy: string;
  note: string | null;
  files: ProofFile[];
  recordedBy: string;
  recordedAt: string;
};
