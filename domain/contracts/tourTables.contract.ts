/**
 * The tour tables and the tour's own page: the rows of GET /api/tours, the detail, the timeline and
 * the drivers a tour may be assigned to. Dates are ISO strings; a time of a stop is read in its
 * `timezone`.
 */
import { z } from 'zod';
import { TourStatus, type TourStatusId } from '../catalog.ts';
import { tableAnswerOf, TrustSchema } from './common.ts';

const Person = z.object({ id: z.string(), name: z.string().nullable() });

/** A pickup or dropoff as a tours row shows it; `time` is ISO, read in `timezone`. */
export const TourPlaceSchema = z.object({
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  time: z.string().nullable(),
  timezone: z.string().nullable(),
});
export type TourPlace = z.infer<typeof TourPlaceSchema>;

/** One row of GET /api/tours and /api/tours/assigned. */
export const TourRowSchema = z.object({
  id: z.string(),
  loadId: z.string(),
  loadGuid: z.string(),
  status: z.number(),
  statusName: z.string(),
  driver: Person.nullable(),
  shipper: z.string().nullable(),
  carrier: z.string().nullable(),
  /** The agreed price; null for a driver. */
  price: z.number().nullable(),
  eldTruckName: z.string().nullable(),
  pickup: TourPlaceSchema,
  dropoff: TourPlaceSchema,
  lastPositionAt: z.string().nullable(),
  openedAt: z.string().nullable(),
  shipperRated: z.boolean(),
  carrierRated: z.boolean(),
  actions: z.array(z.number()),
  /** Its load's trust flags (docs/api.md "Trust flags"): on the shipper's and the Superadmin's rows only. */
  trust: TrustSchema.optional(),
});
export type TourRow = z.infer<typeof TourRowSchema>;
export const ToursTableSchema = tableAnswerOf(TourRowSchema);

export const TourStopSchema = z.object({
  id: z.string(),
  locationType: z.number(),
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  arrived: z.boolean(),
  departed: z.boolean(),
});

/** GET /api/tours/{id}. */
export const TourDetailSchema = z.object({
  id: z.string(),
  loadId: z.string(),
  loadGuid: z.string(),
  proposalId: z.string(),
  shipperOrganizationId: z.string(),
  carrierOrganizationId: z.string(),
  status: z.literal(Object.values(TourStatus) as TourStatusId[]),
  statusName: z.string(),
  assignee: Person.nullable(),
  /** The agreed price; null for a driver, who is refused the contract and the rate confirmation too. */
  price: z.number().nullable(),
  eldTruckName: z.string().nullable(),
  contractFileId: z.string().nullable(),
  stops: z.array(TourStopSchema),
  ratings: z.object({ shipperRated: z.boolean(), carrierRated: z.boolean() }),
  openedAt: z.string(),
  updatedAt: z.string(),
});
export type TourDetail = z.infer<typeof TourDetailSchema>;

export const timelineTypes = ['status', 'note', 'arrived', 'departed', 'delay', 'issue'] as const;
export type TimelineType = (typeof timelineTypes)[number];
export const TimelineEntrySchema = z.object({
  id: z.string(),
  type: z.enum(timelineTypes),
  message: z.string(),
  stopId: z.string().nullable(),
  at: z.string(),
  user: Person.nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const AssigneeSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  openTours: z.array(z.object({ id: z.string(), loadGuid: z.string() })),
});
export type Assignee = z.infer<typeof AssigneeSchema>;
