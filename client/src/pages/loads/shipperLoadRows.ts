import { GenericStatus, TourStatus } from '../../../../domain/catalog.ts';
import { shipmentStatusOf, shipperLoadActions } from '../../../../domain/loads/loadRows.ts';
import type { ShipperLoadRow } from '../../shared/loads/loads.api.ts';

/** Where each row action leads (the tracking, chat, rating and history screens belong to other areas). */
export const shipperLinks = {
  edit: (row: { id: string }) => `/loads/edit/${row.id}`,
  offers: (row: { id: string }) => `/offers/shipper/load?id=${row.id}`,
  track: (row: { tourId: string | null }) => `/track/tour?id=${row.tourId ?? ''}`,
  chat: (row: { tourId: string | null }) => `/chat/tour?id=${row.tourId ?? ''}`,
  rate: (row: { tourId: string | null }) => `/tours?rate=${row.tourId ?? ''}`,
  history: (row: { id: string }) => `/loads/history/${row.id}`,
};

/** The load's row once its tour has `status` (nobody has rated a tour before it is delivered). */
export function withTourStatus(
  row: ShipperLoadRow,
  status: number,
  tourId: string,
): ShipperLoadRow {
  const loadStatus = status === TourStatus.Canceled ? GenericStatus.Canceled : row.loadStatus;
  const facts = {
    loadStatus,
    tourStatus: status,
    openProposals: row.openProposals,
    proposalsCount: row.proposals,
    shipperRated: false,
    carrierRated: false,
  };
  const shipment = shipmentStatusOf(facts);
  return {
    ...row,
    loadStatus,
    tourId,
    status: shipment.id,
    statusKey: shipment.key,
    statusName: shipment.name,
    actions: shipperLoadActions(facts),
  } as ShipperLoadRow;
}
