/** A tour as the API answers it: a row of the tours tables, and one tour, with the price only for those who may see it. */
import { Role, tourStatuses } from '../../domain/catalog.ts';
import {
  carrierTourActions,
  driverTourActions,
  shipperLoadActions,
} from '../../domain/loads/loadRows.ts';
import type { TourScope } from '../../projections/marketplace/marketplace.queries.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { isSuperadmin, type Actor } from '../http/auth.ts';

/**
 * The agreed price for the caller: none for a driver, who is refused the contract and the rate
 * confirmation too. The price is between the shipper's and the carrier's dispatchers.
 */
export const priceFor = (actor: Actor, price: number): number | null =>
  actor.roleId === Role.Driver ? null : price;

// biome-ignore lint/suspicious/noExplicitAny: a read model row as the query returned it, shaped into the answer here
export type Row = Record<string, any>;
export const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
export const statusNameOf = (id: number) =>
  tourStatuses.find((status) => status.id === id)?.name ?? String(id);

export const scopeOf = (actor: Actor): TourScope => {
  if (isSuperadmin(actor)) return { all: true };
  if (actor.roleId === Role.Driver) return { assigneeId: actor.userId };
  return { organizationId: actor.organizationId };
};

export const rowOf = (actor: Actor, row: Row) => {
  const asShipper = row.shipper_organization_id === actor.organizationId;
  const facts = {
    tourStatus: row.status as number,
    carrierRated: Boolean(row.carrier_rated),
    shipperRated: Boolean(row.shipper_rated),
  };
  const actions =
    actor.roleId === Role.Driver
      ? driverTourActions(row.status)
      : asShipper
        ? shipperLoadActions({
            loadStatus: row.load_status,
            tourStatus: row.status,
            openProposals: 0,
            proposalsCount: 1,
            shipperRated: facts.shipperRated,
            carrierRated: facts.carrierRated,
          })
        : carrierTourActions(facts);
  return {
    id: row.id as string,
    loadId: row.load_id as string,
    loadGuid: row.load_guid as string,
    status: row.status as number,
    statusName: statusNameOf(row.status),
    driver: row.assignee_name ? { id: row.assignee_id, name: row.assignee_name } : null,
    shipper: row.shipper_name as string | null,
    carrier: row.carrier_name as string | null,
    price: priceFor(actor, Number(row.price)),
    eldTruckName: row.eld_truck_name as string | null,
    pickup: {
      address: row.pickup_address,
      city: row.pickup_city,
      state: row.pickup_state,
      time: iso(row.pickup_start),
      timezone: row.pickup_timezone,
    },
    dropoff: {
      address: row.dropoff_address,
      city: row.dropoff_city,
      state: row.dropoff_state,
      time: iso(row.dropoff_start),
      timezone: row.dropoff_timezone,
    },
    lastPositionAt: iso(row.last_position_at),
    openedAt: iso(row.opened_at),
    shipperRated: facts.shipperRated,
    carrierRated: facts.carrierRated,
    actions,
  };
};

/** A tour as the API answers it to that caller (a driver without the price). */
export const tourAnswer = (tour: OpenedTour, actor: Actor) => ({
  id: tour.tourId,
  loadId: tour.loadId,
  loadGuid: tour.loadGuid,
  proposalId: tour.proposalId,
  shipperOrganizationId: tour.shipperOrganizationId,
  carrierOrganizationId: tour.carrierOrganizationId,
  status: tour.status,
  statusName: statusNameOf(tour.status),
  assignee: tour.assigneeId ? { id: tour.assigneeId, name: tour.assigneeName } : null,
  price: priceFor(actor, tour.price),
  eldTruckName: tour.eldTruckName,
  contractFileId: tour.contractFileId,
  stops: tour.stops.map((stop) => ({
    ...stop,
    arrived: tour.arrivedStopIds.includes(stop.id),
    departed: tour.departedStopIds.includes(stop.id),
  })),
  ratings: {
    shipperRated: tour.ratings.shipper !== null,
    carrierRated: tour.ratings.carrier !== null,
  },
  openedAt: tour.openedAt,
  updatedAt: tour.updatedAt,
});
