/**
 * The loads calls: posting, editing, cancelling, the shipper's table, the carriers' marketplace, one
 * load, its offers' map, saved locations and the CSV import.
 */
import { z } from 'zod';
import { FacilityBadgeSchema, LoadEndFacilitiesSchema } from './facilities.contract.ts';
import {
  cancelLoadBodySchema,
  extendExpirationBodySchema,
  loadBodySchema,
  updateLoadBodySchema,
} from '../schemas/load.schema.ts';
import {
  checkedInside,
  ErrorBodySchema,
  errorAnswers,
  FieldErrorSchema,
  guardedErrors,
  IdParamsSchema,
  tableAnswerOf,
  TrustSchema,
} from './common.ts';
import { TermsSchema } from './terms.contract.ts';
import { LoadPayerSchema } from './payers.contract.ts';

export { IdParamsSchema as LoadIdParamsSchema };

// The load bodies depend on the current time (a pickup in the past is refused): checked inside, documented here.
const DOCUMENTED_AT = '2000-01-01T00:00:00.000Z';
export const PostLoadBodySchema = checkedInside(loadBodySchema(DOCUMENTED_AT));
/** PUT loads: the whole load with its `loadId`, or `{loadId, newExpiration, expirationTimezone?}` to extend the offer. */
export const EditLoadBodySchema = checkedInside(
  z.union([updateLoadBodySchema(DOCUMENTED_AT), extendExpirationBodySchema(DOCUMENTED_AT)]),
);
export const CancelLoadBodySchema = checkedInside(cancelLoadBodySchema);

export const LoadPostedAnswerSchema = z.object({ id: z.string(), guid: z.string() });
export const LoadUpdatedAnswerSchema = z.object({ message: z.string() });
export const LoadCanceledAnswerSchema = z.object({
  id: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  message: z.string(),
});

/** A place of a load row: the pickup's or the dropoff's. */
export const RowPlaceSchema = z.object({
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  time: z.string().nullable(),
  timeEnd: z.string().nullable(),
  timezone: z.string(),
});
export type RowPlace = z.infer<typeof RowPlaceSchema>;

/** The columns every load row shares (shipper table, marketplace, realtime payloads). */
export const LoadRowBaseSchema = z.object({
  id: z.string(),
  guid: z.string(),
  loadStatus: z.number().int(),
  loadStatusName: z.string(),
  pickup: RowPlaceSchema,
  dropoff: RowPlaceSchema,
  pickupTime: z.string().nullable(),
  dropoffTime: z.string().nullable(),
  expiration: z.string().nullable(),
  expirationTimezone: z.string(),
  loadTypeId: z.number().int(),
  loadType: z.string().nullable(),
  equipment: z.array(z.number()),
  equipmentNames: z.array(z.string()),
  accessories: z.array(z.number()),
  weight: z.number(),
  commodity: z.string(),
  refNumber: z.string(),
  distance: z.number(),
  stopsCount: z.number().int(),
  /** The load's accessorial terms; null: none (posted without, or before terms existed). */
  terms: TermsSchema.nullable(),
  /** The Book Now price: a carrier may book the load at it in one step; null: offers only. */
  bookNowPrice: z.number().nullable(),
});
export type LoadRowBase = z.infer<typeof LoadRowBaseSchema>;

/**
 * A load's audience: preferred carriers only for `preferredOnlyHours` after posting; `opensAt` is
 * when the whole marketplace sees it, null once it does. Null on the load: everyone at once.
 */
export const LoadAudienceSchema = z.object({
  preferredOnlyHours: z.number().int(),
  opensAt: z.string().nullable(),
});
export type LoadAudienceAnswer = z.infer<typeof LoadAudienceSchema>;

/** A row of GET loads/shipper. */
export const ShipperLoadRowSchema = LoadRowBaseSchema.extend({
  /** The shipment status (a tour status id), null while the load has no tour (statusKey says which: posted, bid submitted, canceled, ...). */
  status: z.number().int().nullable(),
  statusKey: z.string(),
  statusName: z.string(),
  statusColor: z.string(),
  proposals: z.number().int(),
  openProposals: z.number().int(),
  newProposals: z.number().int(),
  bestPrice: z.number().nullable(),
  price: z.number().nullable(),
  tourId: z.string().nullable(),
  driver: z.string().nullable(),
  actions: z.array(z.number().int()),
  /** The booking's trust flags (ready with no reasons while the load has no booking). */
  trust: TrustSchema,
  /** Preferred carriers first: null, everyone at once. */
  audience: LoadAudienceSchema.nullable(),
});
export type ShipperLoadRow = z.infer<typeof ShipperLoadRowSchema>;
export const ShipperLoadsAnswerSchema = tableAnswerOf(ShipperLoadRowSchema);

/** The caller's own offer on a marketplace load. */
export const MyOfferSchema = z.object({
  id: z.string(),
  status: z.number().int().nullable(),
  statusName: z.string(),
  price: z.number().nullable(),
  counterPrice: z.number().nullable(),
});

/** Detention figures of a shipper or a stop place; all null with status 'new' under 3 measured stops. */
export const DetentionFiguresSchema = z.object({
  /** Stops measured (arrival and departure recorded). */
  stops: z.number().int(),
  /** Median minutes on site, arrival to departure. */
  timeOnSiteMedian: z.number().nullable(),
  /** 0 to 1: measured stops held beyond the free time. */
  detentionShare: z.number().nullable(),
  /** 0 to 1: answered claims the shipper approved before they were due (null: none answered yet). */
  approvedOnTimeShare: z.number().nullable(),
  status: z.enum(['new', 'measured']),
});
/** A load's detention figures: its shipper's, its pickup place's and its delivery place's. */
export const LoadDetentionSchema = z.object({
  shipper: DetentionFiguresSchema,
  pickup: DetentionFiguresSchema,
  delivery: DetentionFiguresSchema,
});
export type LoadDetentionAnswer = z.infer<typeof LoadDetentionSchema>;

/** A row of GET loads/carrier (the marketplace). */
export const MarketplaceRowSchema = LoadRowBaseSchema.extend({
  status: z.number().int(),
  statusName: z.string(),
  shipper: z.string(),
  originDistance: z.number().nullable(),
  destinationDistance: z.number().nullable(),
  myProposal: MyOfferSchema.nullable(),
  actions: z.array(z.number().int()),
  /** How long this shipper and these places keep trucks, measured from the log. */
  detention: LoadDetentionSchema,
  /** How this shipper pays its carriers' invoices (the last 365 days): 'new' under 3 paid invoices. */
  payer: LoadPayerSchema,
  /** The pickup's and the delivery's facility, with the median time on site measured there. */
  facilities: LoadEndFacilitiesSchema,
});
export type MarketplaceRow = z.infer<typeof MarketplaceRowSchema>;
export const MarketplaceAnswerSchema = tableAnswerOf(MarketplaceRowSchema);

/** A saved location of GET loads/list/getSavedLocations. */
export const SavedLocationSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  number: z.string().nullable(),
  locationType: z.number().int(),
});
export type SavedLocation = z.infer<typeof SavedLocationSchema>;

/** A stop of GET loads/{id}; facility contacts are null for those who may not see them. */
export const LoadLocationSchema = z.object({
  id: z.string(),
  locationType: z.number().int(),
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  number: z.string().nullable(),
  /** The facility the stop belongs to (docs/api.md "Facilities"); null until the read model has it. */
  facilityId: z.string().nullable().optional(),
  /** The facility's median time on site (null under three visits) and its visits. */
  facility: FacilityBadgeSchema.nullable().optional(),
});
export type LoadLocation = z.infer<typeof LoadLocationSchema>;

/** GET loads/{id}. */
export const LoadDetailSchema = z.object({
  id: z.string(),
  guid: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  shipperOrganizationId: z.string(),
  shipper: z.string().nullable(),
  postedAt: z.string(),
  updatedAt: z.string(),
  pickupTimestampStart: z.string(),
  pickupTimestampEnd: z.string().nullable(),
  pickupTimezone: z.string(),
  dropOffTimestampStart: z.string(),
  dropOffTimestampEnd: z.string().nullable(),
  dropoffTimezone: z.string(),
  expiration: z.string(),
  expirationTimezone: z.string(),
  loadTypeId: z.number().int(),
  rate: z.number(),
  rateTypeId: z.number().int(),
  carriersSortingTypeId: z.number().int().nullable(),
  loadAccessories: z.array(z.number()),
  loadEquipment: z.array(z.number()),
  description: z.string(),
  weight: z.number(),
  commodity: z.string(),
  refNumber: z.string(),
  locations: z.array(LoadLocationSchema),
  contactsHidden: z.boolean(),
  acceptedProposalId: z.string().nullable(),
  carrierOrganizationId: z.string().nullable(),
  price: z.number().nullable(),
  tourId: z.string().nullable(),
  contractFileId: z.string().nullable(),
  cancelMessage: z.string().nullable(),
  canEdit: z.boolean(),
  /** The booking's trust flags: to the load's shipper and a Superadmin. */
  trust: TrustSchema.optional(),
  /** The load's accessorial terms; null: no terms (a load posted before terms existed, or posted without). */
  terms: TermsSchema.nullable(),
  /** The terms agreed at the acceptance (the accepted offer's own, else the load's): to the load's parties. */
  agreedTerms: TermsSchema.nullable(),
  /** The Book Now price: a carrier may book the load at it in one step; null: offers only. */
  bookNowPrice: z.number().nullable(),
  /** How long this shipper and these places keep trucks, measured from the log. */
  detention: LoadDetentionSchema,
  /** How this shipper pays its carriers' invoices (the last 365 days): 'new' under 3 paid invoices. */
  payer: LoadPayerSchema,
  /** Preferred carriers first (to the shipper and a Superadmin): null, everyone at once. */
  audience: LoadAudienceSchema.nullable(),
});
export type LoadDetail = z.infer<typeof LoadDetailSchema>;

/** A marker of GET loads/{id}/proposals/map: a stop of the load, or the truck of an offer. */
export const OfferMapMarkerSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  type: z.enum(['truck', 'specialMarker']),
  name: z.string(),
  address: z.string(),
  additionalInfo: z.string(),
  price: z.number().nullable(),
  proposalId: z.string().optional(),
  contactDetails: z.object({
    name: z.string(),
    contactName: z.string().nullable(),
    contactPhone: z.string().nullable(),
    notes: z.string().nullable(),
  }),
});
export type OfferMapMarker = z.infer<typeof OfferMapMarkerSchema>;

/** The CSV import: multipart with the file `csv_loads_file`, read inside by readMultipart (the body Fastify sees is empty); documented here. */
export const LoadsImportBodySchema = z.unknown().meta({
  type: 'object',
  properties: { csv_loads_file: { type: 'string', format: 'binary' } },
  required: ['csv_loads_file'],
});

/** The CSV import's answer: every row is created, or none. */
export const LoadsImportedAnswerSchema = z.object({
  created: z.number().int(),
  ids: z.array(z.string()),
});
export type LoadsImportedAnswer = z.infer<typeof LoadsImportedAnswerSchema>;

/** The CSV template: the header row and one example row. */
export const LoadsCsvTemplateAnswer = {
  content: {
    'text/csv': { schema: z.string().meta({ description: 'The header row and one example row' }) },
  },
};

/** A problem of one row of the CSV: its line (the header is line 1), its column and the form's message. */
export const CsvRowErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type CsvRowError = z.infer<typeof CsvRowErrorSchema>;
/** The import's 400 and 413: the rows' problems, or the file's (named by path). */
export const LoadsImportErrorSchema = ErrorBodySchema.extend({
  errors: z.array(z.union([FieldErrorSchema, CsvRowErrorSchema])).optional(),
});

export const loadsAnswers = {
  post: { 201: LoadPostedAnswerSchema, ...errorAnswers(400, 404), ...guardedErrors },
  edit: { 200: LoadUpdatedAnswerSchema, ...errorAnswers(400, 404, 409), ...guardedErrors },
  cancel: { 200: LoadCanceledAnswerSchema, ...errorAnswers(400, 404, 409), ...guardedErrors },
  shipper: { 200: ShipperLoadsAnswerSchema, ...errorAnswers(400), ...guardedErrors },
  carrier: { 200: MarketplaceAnswerSchema, ...errorAnswers(400), ...guardedErrors },
  savedLocations: { 200: z.array(SavedLocationSchema), ...guardedErrors },
  template: { 200: LoadsCsvTemplateAnswer, ...guardedErrors },
  batchImport: {
    201: LoadsImportedAnswerSchema,
    400: LoadsImportErrorSchema,
    413: LoadsImportErrorSchema,
    ...errorAnswers(404, 409, 415),
    ...guardedErrors,
  },
  one: { 200: LoadDetailSchema, ...errorAnswers(400, 404), ...guardedErrors },
  map: { 200: z.array(OfferMapMarkerSchema), ...errorAnswers(400, 404), ...guardedErrors },
};
