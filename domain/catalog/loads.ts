import type { Entry } from './lookup.ts';

export const LoadType = { FTL: 1, LTL: 2 } as const;
export const loadTypes: readonly Entry[] = [
  { id: 1, name: 'FTL' },
  { id: 2, name: 'LTL' },
];

export const LocationType = {
  Pickup: 1,
  ExtraPickupStop: 2,
  ExtraDropoffStop: 3,
  Dropoff: 4,
} as const;
export type LocationTypeId = (typeof LocationType)[keyof typeof LocationType];
export const locationTypes: readonly (Entry & { readonly id: LocationTypeId })[] = [
  { id: 1, name: 'Pickup Location' },
  { id: 2, name: 'Extra Pickup Stop' },
  { id: 3, name: 'Extra Dropoff Stop' },
  { id: 4, name: 'Dropoff Location' },
];
/** Pickup and dropoff stops carry a pickup or dropoff number; extra stops do not. */
export const locationTypeHasNumber = (id: number): boolean =>
  id === LocationType.Pickup || id === LocationType.Dropoff;
export const isPickupLocationType = (id: number): boolean =>
  id === LocationType.Pickup || id === LocationType.ExtraPickupStop;

/** Special requirements of a load (`loadAccessories`). 10 NONE means none. */
export const accessories: readonly Entry[] = [
  { id: 1, name: 'Pallet Jack' },
  { id: 2, name: 'Driver Assist' },
  { id: 3, name: 'In Bond' },
  { id: 4, name: 'Liftgate' },
  { id: 5, name: 'Protective Gear' },
  { id: 6, name: 'Twic Required' },
  { id: 7, name: 'Food Grade Trailer' },
  { id: 8, name: 'Tarping' },
  { id: 9, name: 'PipeStakes' },
  { id: 10, name: 'NONE' },
];
export const NO_ACCESSORY = 10;

/** A shipper's insured amount. `name` is the exact string the registration form sends. */
export const valueBands: readonly (Entry & { readonly description: string })[] = [
  { id: 1, name: '< $100,000.00', description: 'under $100,000.00' },
  { id: 2, name: '> $100,000.00', description: 'over $100,000.00' },
];
/** The same list under the name the registration and profile forms use. */
export const insuredAmounts = valueBands;

/** Row actions of the table protocol (docs/api.md); a row's `actions` lists the ids its caller may take. */
export const TableAction = {
  View: 1,
  Edit: 2,
  Cancel: 3,
  Offers: 4,
  MakeOffer: 5,
  Track: 6,
  Chat: 7,
  Rate: 8,
  AssignDriver: 9,
  UploadContract: 10,
  ExtendExpiration: 11,
  History: 12,
  Activate: 13,
  Block: 14,
  Withdraw: 15,
  ConfirmDelivery: 16,
} as const;
export type TableActionId = (typeof TableAction)[keyof typeof TableAction];
export const tableActions: readonly (Entry & { readonly id: TableActionId })[] = [
  { id: 1, name: 'View' },
  { id: 2, name: 'Edit' },
  { id: 3, name: 'Cancel' },
  { id: 4, name: 'Offers' },
  { id: 5, name: 'Make offer' },
  { id: 6, name: 'Track' },
  { id: 7, name: 'Chat' },
  { id: 8, name: 'Rate' },
  { id: 9, name: 'Assign driver' },
  { id: 10, name: 'Upload contract' },
  { id: 11, name: 'Extend expiration' },
  { id: 12, name: 'History' },
  { id: 13, name: 'Activate' },
  { id: 14, name: 'Block' },
  { id: 15, name: 'Withdraw' },
  { id: 16, name: 'Confirm delivery' },
];

/** Location search distances in miles, and the marketplace's origin and destination radii. */
export const searchRadii = [50, 100, 150, 200] as const;
export type SearchRadius = (typeof searchRadii)[number];
export const DEFAULT_SEARCH_RADIUS: SearchRadius = 50;

/** Rows per page offered by the tables; the server accepts up to MAX_PAGE_SIZE. */
export const pageSizes = [5, 10, 25] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** The specification's business limits (section 9). */
export const limits = {
  documentMaxBytes: 5_242_880,
  documentMimeTypes: ['application/pdf'],
  signatureMimeTypes: ['image/jpeg', 'image/png'],
  passwordMinLength: 8,
  facilityNameMinLength: 3,
  pinLength: 6,
  ratingStep: 0.5,
  ratingMin: 0.5,
  ratingMax: 5,
  ratingDecimals: 2,
  searchDebounceMs: 500,
} as const;
