import {
  ACCOUNT_GET_CARRIER,
  ACCOUNT_GET_ORGANIZATION,
  ACCOUNT_GET_SHIPPER,
  hasAny,
  LOAD_PROPOSAL_VIEW,
  PROPOSAL_VIEW,
  TOUR_GET,
  TOURS_ALL,
} from '../../../domain/permissions.ts';
import { isSuperadmin, type Actor } from '../../http/auth.ts';
import type { StoredFileMeta } from './files.ts';

/**
 * Who may download a stored file: one rule for every file, decided by what the file belongs to and
 * by the caller's permissions (SECURITY.md "Files"). Anyone else gets 404, as for an unknown id.
 *
 * - A load's signed contract (`loadId`): the dispatchers of both parties, the shipper and the
 *   winning carrier (users holding the offers' view permission), and the Superadmin. Not drivers:
 *   the contract carries the agreed price, the business of the two organizations; a driver works
 *   from the tour (stops, windows, contacts), which its own page shows. The rate confirmation
 *   (GET proposal/{id}/rate-confirmation) follows the same rule through that route's guard.
 * - A tour's file (`tourId`: proof of delivery): the tour's parties' dispatchers, the driver
 *   assigned to the tour, and the Superadmin.
 * - Any other file belongs to the organization that uploaded it (carrier documents, a shipper's
 *   signature): its users who see the organization's account (not its drivers), and the Superadmin.
 */
export type FileParties = {
  /** The organizations of a load: its shipper and, once an offer was accepted, its carrier. */
  load(
    loadId: string,
  ): Promise<{ shipperOrganizationId: string; carrierOrganizationId: string | null } | null>;
  /** The organizations of a tour and the driver assigned to it. */
  tour(tourId: string): Promise<{
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    assigneeId: string | null;
  } | null>;
};

export type FileOwner = 'load' | 'tour' | 'organization';

/** What a file belongs to, hence which rule decides who reads it. */
export const ownerOf = (file: Pick<StoredFileMeta, 'loadId' | 'tourId'>): FileOwner =>
  file.loadId ? 'load' : file.tourId ? 'tour' : 'organization';

const partyOf = (actor: Actor, organizations: readonly (string | null)[]) =>
  actor.organizationId !== null && organizations.includes(actor.organizationId);

export async function mayReadFile(
  actor: Actor,
  file: StoredFileMeta,
  parties: FileParties,
): Promise<boolean> {
  if (isSuperadmin(actor)) return true;
  switch (ownerOf(file)) {
    case 'load': {
      if (!hasAny(actor.permissions, PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW)) return false;
      const load = await parties.load(file.loadId!);
      return (
        load !== null && partyOf(actor, [load.shipperOrganizationId, load.carrierOrganizationId])
      );
    }
    case 'tour': {
      const tour = await parties.tour(file.tourId!);
      if (!tour) return false;
      if (tour.assigneeId === actor.userId && hasAny(actor.permissions, TOUR_GET)) return true;
      return (
        hasAny(actor.permissions, TOURS_ALL) &&
        partyOf(actor, [tour.shipperOrganizationId, tour.carrierOrganizationId])
      );
    }
    case 'organization':
      return (
        actor.organizationId === file.organizationId &&
        hasAny(
          actor.permissions,
          ACCOUNT_GET_ORGANIZATION,
          ACCOUNT_GET_CARRIER,
          ACCOUNT_GET_SHIPPER,
        )
      );
  }
}
