import { GenericStatus, TourStatus, tourStatuses } from '../../../../domain/catalog.ts';
import {
  carrierTourActions,
  driverTourActions,
  shipperLoadActions,
} from '../../../../domain/loads/loadRows.ts';
import type { TourRow } from '../../shared/tours/tours.api.ts';
import type { TourSide } from '../../shared/tours/tourSteps.ts';

/** The tour's row at its new status: the status, its name and the actions the server would send. */
export function withStatus(row: TourRow, status: number, side: TourSide): TourRow {
  const facts = {
    tourStatus: status,
    shipperRated: row.shipperRated,
    carrierRated: row.carrierRated,
  };
  const actions =
    side === 'driver'
      ? driverTourActions(status)
      : // A tour's load is Accepted or Signed (the same actions) until the tour is cancelled.
        side === 'shipper'
        ? shipperLoadActions({
            ...facts,
            loadStatus:
              status === TourStatus.Canceled ? GenericStatus.Canceled : GenericStatus.Accepted,
            openProposals: 0,
            proposalsCount: 1,
          })
        : carrierTourActions(facts);
  return {
    ...row,
    status,
    statusName: tourStatuses.find((entry) => entry.id === status)?.name ?? String(status),
    actions,
  };
}
