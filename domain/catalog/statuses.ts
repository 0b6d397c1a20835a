import { chipColors, type ChipColor } from './colors.ts';
import type { Entry } from './lookup.ts';

export type Status = Entry & { readonly color: ChipColor };

/** Generic statuses of users, organizations, loads and offers (docs/domain.md says which uses which). */
export const GenericStatus = {
  Pending: 1,
  Active: 2,
  Blocked: 3,
  Created: 4,
  Accepted: 5,
  Signed: 6,
  Canceled: 7,
  Paused: 8,
  Completed: 9,
  SubmittedProposal: 10,
  PendingAcceptance: 11,
  Declined: 12,
  PendingConfirmation: 13,
  Confirmed: 14,
} as const;
export type GenericStatusId = (typeof GenericStatus)[keyof typeof GenericStatus];

/** Offers still open: submitted, or countered and waiting for the carrier. */
export const OPEN_OFFER_STATUSES = [
  GenericStatus.SubmittedProposal,
  GenericStatus.PendingAcceptance,
] as const;

const { red, green, blue, orange, purple, grey, amber } = chipColors;

// Colours follow the spec's chip rule by analogy: outcomes that went well are green, waiting on
// someone is amber or orange (orange where the spec uses it: submitted bids, pending confirmation),
// refusals are red, a paused load is grey.
export const genericStatuses: readonly (Status & { readonly id: GenericStatusId })[] = [
  { id: 1, name: 'Pending', color: amber },
  { id: 2, name: 'Active', color: green },
  { id: 3, name: 'Blocked', color: red },
  { id: 4, name: 'Created', color: purple },
  { id: 5, name: 'Accepted', color: green },
  { id: 6, name: 'Signed', color: green },
  { id: 7, name: 'Canceled', color: red },
  { id: 8, name: 'Paused', color: grey },
  { id: 9, name: 'Completed', color: green },
  { id: 10, name: 'Submitted Proposal', color: orange },
  { id: 11, name: 'Pending Acceptance', color: amber },
  { id: 12, name: 'Declined', color: red },
  { id: 13, name: 'Pending Confirmation', color: orange },
  { id: 14, name: 'Confirmed', color: green },
];

/** The name of a generic status (1 Pending, 2 Active, 3 Blocked, …). */
export const statusName = (id: number): string =>
  genericStatuses.find((status) => status.id === id)?.name ?? 'Unknown';

/** The statuses the specification lists for users. */
export const userStatuses: readonly Status[] = [
  { id: 2, name: 'Active', color: green },
  { id: 3, name: 'Blocked', color: red },
];

/** The three user lists per organization type (/users/shippers/{slug}); `id` is the status filter value. */
export const userListStatuses: readonly (Status & {
  readonly slug: 'pending' | 'active' | 'blocked';
})[] = [
  { id: 1, name: 'Pending', slug: 'pending', color: amber },
  { id: 2, name: 'Active', slug: 'active', color: green },
  { id: 3, name: 'Blocked', slug: 'blocked', color: red },
];

export const TourStatus = {
  Created: 1,
  ReadyForPickup: 2,
  Dispatched: 3,
  Delivered: 4,
  Canceled: 5,
  Confirmed: 6,
  BidAccepted: 7,
  CarrierConfirmed: 8,
  InTransit: 9,
  PendingDeliveryConfirmation: 10,
  /** A second 'Delivered' in the specification's list; shown if it appears, never produced. */
  DeliveredLegacy: 11,
} as const;
export type TourStatusId = (typeof TourStatus)[keyof typeof TourStatus];

/** Tours under way, from Ready for pickup to Pending delivery confirmation. */
export const TOUR_UNDER_WAY_STATUSES = [
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
] as const;

export type ShipmentStatusKey =
  | 'created'
  | 'bidSubmitted'
  | 'bidAccepted'
  | 'carrierConfirmed'
  | 'readyForPickup'
  | 'dispatched'
  | 'inTransit'
  | 'pendingDeliveryConfirmation'
  | 'delivered'
  | 'canceled'
  | 'confirmed'
  | 'deliveredLegacy';

export type TourStatusEntry = Status & {
  readonly id: TourStatusId;
  readonly key: ShipmentStatusKey;
};

export const tourStatuses: readonly TourStatusEntry[] = [
  { id: 1, key: 'created', name: 'Created', color: purple },
  { id: 2, key: 'readyForPickup', name: 'Ready for pickup', color: blue },
  { id: 3, key: 'dispatched', name: 'Dispatched', color: blue },
  { id: 4, key: 'delivered', name: 'Delivered', color: green },
  { id: 5, key: 'canceled', name: 'Canceled', color: red },
  { id: 6, key: 'confirmed', name: 'Confirmed', color: green },
  { id: 7, key: 'bidAccepted', name: 'Bid Accepted', color: green },
  { id: 8, key: 'carrierConfirmed', name: 'Carrier Confirmed', color: green },
  { id: 9, key: 'inTransit', name: 'In Transit', color: blue },
  {
    id: 10,
    key: 'pendingDeliveryConfirmation',
    name: 'Pending Delivery Confirmation',
    color: orange,
  },
  { id: 11, key: 'deliveredLegacy', name: 'Delivered', color: green },
];

/** 'Bid Submitted' has no tour status id: a load row shows it while it has an open offer. */
export const BID_SUBMITTED = {
  id: null,
  key: 'bidSubmitted',
  name: 'Bid Submitted',
  color: orange,
} as const satisfies {
  id: null;
  key: ShipmentStatusKey;
  name: string;
  color: ChipColor;
};

export type ShipmentStatus = Omit<TourStatusEntry, 'id'> & { readonly id: TourStatusId | null };

/**
 * The status shown on a load row of the shipper's and the carrier's tables, in the order a shipment
 * moves through them (docs/domain.md "Tour"), with the two never-produced ids last.
 */
export const shipmentStatuses: readonly ShipmentStatus[] = (
  [
    'created',
    'bidSubmitted',
    'bidAccepted',
    'carrierConfirmed',
    'readyForPickup',
    'dispatched',
    'inTransit',
    'pendingDeliveryConfirmation',
    'delivered',
    'canceled',
    'confirmed',
    'deliveredLegacy',
  ] satisfies ShipmentStatusKey[]
).map((key) =>
  key === BID_SUBMITTED.key ? BID_SUBMITTED : tourStatuses.find((status) => status.key === key)!,
);

export const shipmentStatusByKey = (key: ShipmentStatusKey): ShipmentStatus =>
  shipmentStatuses.find((status) => status.key === key)!;

const colorsByName = new Map<string, ChipColor>(
  [...genericStatuses, ...tourStatuses, BID_SUBMITTED].map((status) => [
    status.name.toLowerCase(),
    status.color,
  ]),
);

/**
 * The chip colour for a status shown by name (the generic table shows `statusName`); grey for a
 * name no list holds. Names shared by several lists (Created, Canceled, Confirmed) have one colour.
 */
export const statusColorByName = (name: string): ChipColor =>
  colorsByName.get(name.trim().toLowerCase()) ?? grey;
