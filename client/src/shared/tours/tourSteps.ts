import { Role, TourStatus, type TourStatusId } from '../../../../domain/catalog.ts';
import type { AuthUser } from '../../state/session.ts';

/** Who the caller is on a tour: the rules of docs/domain.md "Tour" depend on it. */
export type TourSide = 'shipper' | 'carrier' | 'driver' | 'admin';

export function sideOf(user: AuthUser | null): TourSide {
  switch (user?.role?.id) {
    case Role.Superadmin:
      return 'admin';
    case Role.Driver:
      return 'driver';
    case Role.Carrier:
      return 'carrier';
    default:
      return 'shipper';
  }
}

/** The key under `tours.steps` that names a step, for buttons and confirmations. */
export type StepKey = 'dispatch' | 'pickUp' | 'deliver' | 'confirmDelivery';

export interface StatusStep {
  from: TourStatusId;
  to: TourStatusId;
  key: StepKey;
  sides: readonly TourSide[];
}

/** The moves PUT tours/{id}/status allows (domain/tours/tour.decide.ts `statusMoves`), one per status. */
export const statusSteps: readonly StatusStep[] = [
  {
    from: TourStatus.ReadyForPickup,
    to: TourStatus.Dispatched,
    key: 'dispatch',
    sides: ['driver', 'carrier', 'admin'],
  },
  {
    from: TourStatus.Dispatched,
    to: TourStatus.InTransit,
    key: 'pickUp',
    sides: ['driver', 'carrier', 'admin'],
  },
  {
    from: TourStatus.InTransit,
    to: TourStatus.PendingDeliveryConfirmation,
    key: 'deliver',
    sides: ['driver', 'carrier', 'admin'],
  },
  {
    from: TourStatus.PendingDeliveryConfirmation,
    to: TourStatus.Delivered,
    key: 'confirmDelivery',
    sides: ['shipper', 'admin'],
  },
];

/** The next status step this side may take from that status, if any. */
export const nextStep = (status: number, side: TourSide): StatusStep | null =>
  statusSteps.find((step) => step.from === status && step.sides.includes(side)) ?? null;

/** A shipment can be called off (status 5, with a message) until the truck is loaded and rolling. */
const cancellable: readonly number[] = [
  TourStatus.BidAccepted,
  TourStatus.CarrierConfirmed,
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
];
export const canCancel = (status: number, side: TourSide): boolean =>
  side !== 'driver' && cancellable.includes(status);

/** The statuses in which the truck is on the road and its positions count. */
export const trackedStatuses: readonly number[] = [
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
];
export const isActiveTour = (status: number): boolean => trackedStatuses.includes(status);
