import type { Kysely } from 'kysely';
import { GenericStatus, Role } from '../../domain/catalog.ts';
import { carrierOfferOn, tourParties } from '../../projections/marketplace/marketplace.queries.ts';
import { organizationNameAndStatus } from '../../projections/organizations/organizations.queries.ts';
import { carrierStandingWith } from '../../projections/carrierPreferences/carrierPreferences.queries.ts';
import { opensAtOf, type LoadAudience } from '../../domain/loads/load.types.ts';
import type { DB } from '../../storage/schema.ts';
import { isTourParty } from '../commands/marketplace.ts';
import { isSuperadmin, type Actor } from './auth.ts';

/**
 * Who may see a load and how much: its shipper (and a Superadmin) everything; the accepted carrier
 * and its assigned driver everything, contacts included; a carrier with an offer on it, or any
 * carrier while it is open on the marketplace, the load without facility contacts. A carrier the
 * shipper blocked sees none of its loads; while a load is preferred-only, only the shipper's
 * preferred carriers (and those with an offer on it) see it.
 */
export async function loadAccess(
  db: Kysely<DB>,
  actor: Actor,
  load: {
    loadId: string;
    shipperOrganizationId: string;
    carrierOrganizationId: string | null;
    tourId: string | null;
    status: number;
    details: { expiration: string; audience?: LoadAudience | null };
    postedAt?: string;
    openedToMarketplace?: boolean;
  },
  organizations: {
    of(organizationId: string): Promise<{ name: string; status: number } | undefined>;
  } = { of: (organizationId) => organizationNameAndStatus(db, organizationId) },
) {
  const shipper = await organizations.of(load.shipperOrganizationId);
  const base = { shipperName: shipper?.name ?? null };
  if (isSuperadmin(actor) || actor.organizationId === load.shipperOrganizationId) {
    return {
      ...base,
      visible: actor.roleId !== Role.Driver,
      contacts: true,
      owner: actor.roleId !== Role.Driver,
      party: true,
    };
  }
  if (actor.roleId === Role.Driver) {
    if (!load.tourId)
      return { ...base, visible: false, contacts: false, owner: false, party: false };
    const tour = await tourParties(db, load.tourId);
    const party = Boolean(
      tour &&
        isTourParty(actor, {
          shipperOrganizationId: tour.shipper_organization_id,
          carrierOrganizationId: tour.carrier_organization_id,
          assigneeId: tour.assignee_id,
        }),
    );
    return { ...base, visible: party, contacts: party, owner: false, party };
  }
  if (actor.roleId === Role.Carrier && actor.organizationId) {
    if (load.carrierOrganizationId === actor.organizationId)
      return { ...base, visible: true, contacts: true, owner: false, party: true };
    // A shipper's blocked carrier never sees its loads; a preferred-only load is its preferred carriers'.
    const standing = await carrierStandingWith(
      db,
      load.shipperOrganizationId,
      actor.organizationId,
    );
    if (standing === 'blocked')
      return { ...base, visible: false, contacts: false, owner: false, party: false };
    const preferredOnly =
      !load.openedToMarketplace &&
      load.postedAt !== undefined &&
      opensAtOf(load.postedAt, load.details.audience) !== null;
    const offer = await carrierOfferOn(db, load.loadId, actor.organizationId);
    const open =
      (!preferredOnly || standing === 'preferred') &&
      load.status === GenericStatus.Created &&
      load.details.expiration > new Date().toISOString() &&
      shipper?.status === GenericStatus.Active;
    return {
      ...base,
      visible: Boolean(offer) || open,
      contacts: false,
      owner: false,
      party: false,
    };
  }
  return { ...base, visible: false, contacts: false, owner: false, party: false };
}
