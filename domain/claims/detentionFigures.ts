/**
 * Detention figures (docs/domain.md "Detention figures"): measured from the log for each shipper and
 * each stop place, shown to carriers before they offer. A stop is measured once both its arrival and
 * its departure are recorded; a payer (or a place) with fewer measured stops than `MEASURED_FROM` is
 * "new" and shows no figures.
 */
import { isPickupLocationType } from '../catalog.ts';
import type { StopKind } from './claim.types.ts';

/** Under this many measured stops a shipper or a place is new: no figures. */
export const MEASURED_FROM = 3;

/**
 * The key of a stop place: its address (trimmed, lower case, spaces collapsed) and its coordinates
 * to four decimals (about 11 m), so the same dock typed again is the same place. The one place that
 * decides what "the same place" is: a facility id will replace it.
 */
export const placeKey = (place: { address: string; latitude: number; longitude: number }): string =>
  `${place.address.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ')}@${Number(place.latitude).toFixed(4)},${Number(place.longitude).toFixed(4)}`;

/** The side of the route a stop is on: its free time is the pickup's or the delivery's. */
export const stopKindOf = (locationType: number): StopKind =>
  isPickupLocationType(locationType) ? 'pickup' : 'delivery';

/** How a claim was first answered: approved before it was due, after it, by silence, or disputed. */
export type ClaimOutcome = 'open' | 'on-time' | 'late' | 'silence' | 'disputed';

/** What the log gives for one shipper or one place. */
export type MeasuredStops = {
  /** Stops with both an arrival and a departure. */
  stops: number;
  /** Median minutes from arrival to departure; null without a measured stop. */
  medianMinutes: number | null;
  /** Measured stops whose time on site went beyond the free time. */
  detentionStops: number;
  /** Claims the shipper answered (approved, disputed) or silence approved. */
  claimsDecided: number;
  /** Of those, approved by the shipper before they were due. */
  claimsOnTime: number;
};

export type DetentionFigures = {
  stops: number;
  /** Minutes, arrival to departure, the median of the measured stops. */
  timeOnSiteMedian: number | null;
  /** 0 to 1: the measured stops held beyond the free time. */
  detentionShare: number | null;
  /** 0 to 1: the decided claims the shipper approved before they were due; null with none decided. */
  approvedOnTimeShare: number | null;
  status: 'new' | 'measured';
};

export type LoadDetention = {
  shipper: DetentionFigures;
  pickup: DetentionFigures;
  delivery: DetentionFigures;
};

const share = (part: number, whole: number) => Math.round((part / whole) * 100) / 100;

/** The figures as the API answers them: none while fewer than `MEASURED_FROM` stops are measured. */
export const figuresOf = (measured: MeasuredStops | undefined): DetentionFigures => {
  const stops = measured?.stops ?? 0;
  if (!measured || stops < MEASURED_FROM)
    return {
      stops,
      timeOnSiteMedian: null,
      detentionShare: null,
      approvedOnTimeShare: null,
      status: 'new',
    };
  return {
    stops,
    timeOnSiteMedian: measured.medianMinutes === null ? null : Math.round(measured.medianMinutes),
    detentionShare: share(measured.detentionStops, stops),
    approvedOnTimeShare:
      measured.claimsDecided > 0 ? share(measured.claimsOnTime, measured.claimsDecided) : null,
    status: 'measured',
  };
};
