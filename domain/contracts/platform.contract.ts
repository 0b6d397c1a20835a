/** Health and the catalogue: open to everyone, no tenant data. */
import { z } from 'zod';
import { errorAnswers } from './common.ts';

/** A position in the event log, as the store writes it (numbers as text: they outgrow a JSON number). */
export const LogPositionSchema = z
  .object({ transactionId: z.string(), globalPosition: z.string() })
  .meta({ id: 'LogPosition' });
export type LogPositionAnswer = z.infer<typeof LogPositionSchema>;

export const HealthSchema = z
  .object({
    /** degraded: some read model parked an event it could not apply (still 200). */
    status: z.enum(['ok', 'catching-up', 'degraded', 'unavailable']),
    eventStore: z.object({
      kind: z.string(),
      status: z.enum(['ok', 'unavailable']),
      head: LogPositionSchema.nullable(),
      /** The last error of the event store's subscriptions (they resubscribe), null when none since start. */
      lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
    }),
    readModels: z.array(
      z.object({
        /** lag: events between its position and the head of the log. */
        projection: z.string(),
        version: z.number(),
        running: z.boolean(),
        position: LogPositionSchema,
        lag: z.number(),
        parked: z.number(),
      }),
    ),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

/** Not rate limited: monitors call it often. */
export const healthContract = { response: { 200: HealthSchema, 503: HealthSchema } };

const Entry = z.object({ id: z.number(), name: z.string() });
const Color = z.object({ name: z.string(), hex: z.string() });
const ColoredStatus = Entry.extend({ color: Color });

/** GET /api/catalog: every enumeration of the product (`domain/catalog.ts` `buildCatalog`). */
export const CatalogSchema = z
  .object({
    truckTypes: z.array(Entry),
    driverTeams: z.array(Entry),
    trailerTypes: z.array(Entry.extend({ equipmentGroupId: z.number().nullable() })),
    equipmentGroups: z.array(Entry),
    loadTypes: z.array(Entry),
    locationTypes: z.array(Entry),
    accessories: z.array(Entry),
    valueBands: z.array(Entry.extend({ description: z.string() })),
    genericStatuses: z.array(ColoredStatus),
    userStatuses: z.array(ColoredStatus),
    userListStatuses: z.array(ColoredStatus.extend({ slug: z.string() })),
    tourStatuses: z.array(ColoredStatus.extend({ key: z.string() })),
    shipmentStatuses: z.array(ColoredStatus.extend({ id: z.number().nullable(), key: z.string() })),
    chipColors: z.record(z.string(), Color),
    timeZones: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        label: z.string(),
        shortName: z.string(),
        offset: z.string(),
      }),
    ),
    ratingCriteria: z.array(Entry.extend({ side: z.string(), ratedBy: z.string() })),
    tableActions: z.array(Entry),
    searchRadii: z.array(z.number()),
    defaultSearchRadius: z.number(),
    pageSizes: z.array(z.number()),
    defaultPageSize: z.number(),
    roles: z.array(Entry),
    organizationTypes: z.array(z.string()),
    permissions: z.array(Entry.extend({ area: z.string(), description: z.string() })),
    limits: z.object({
      documentMaxBytes: z.number(),
      documentMimeTypes: z.array(z.string()),
      signatureMimeTypes: z.array(z.string()),
      passwordMinLength: z.number(),
      facilityNameMinLength: z.number(),
      pinLength: z.number(),
      ratingStep: z.number(),
      ratingMin: z.number(),
      ratingMax: z.number(),
      ratingDecimals: z.number(),
      searchDebounceMs: z.number(),
    }),
    /** The instant the time zones' abbreviations and offsets hold for. */
    asOf: z.string(),
  })
  .meta({ id: 'Catalog' });
export type CatalogAnswer = z.infer<typeof CatalogSchema>;

export const catalogContract = { response: { 200: CatalogSchema, ...errorAnswers(429) } };

/** GET /api/client-settings: what the browser needs from the server's configuration (no secrets). */
export const ClientSettingsSchema = z.object({
  map: z.object({
    /** An XYZ template (`{z}`, `{x}`, `{y}`) drawn under every map; null: the bundled US states only. */
    tileUrl: z.string().nullable(),
    /** The tiles' attribution, shown on the map; null without tiles. */
    attribution: z.string().nullable(),
  }),
});
export type ClientSettings = z.infer<typeof ClientSettingsSchema>;
export const clientSettingsContract = {
  response: { 200: ClientSettingsSchema, ...errorAnswers(429) },
};
