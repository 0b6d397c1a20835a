/**
 * The carrier's ELD integrations: the catalogue with the organization's installations, installing
 * and updating credentials (checked with the provider first; the secret is never answered), and the
 * live trucks of an installation.
 */
import { z } from 'zod';
import { errorAnswers, guardedErrors } from './common.ts';

const SERVICE_REQUIRED = 'Please select a service';
const SECRET_REQUIRED = 'Please enter the secret';

const clientIdSchema = z
  .string()
  .trim()
  .max(200, 'The client id is too long')
  .nullish()
  .transform((value) => value || null);
const clientSecretSchema = z
  .string({ error: SECRET_REQUIRED })
  .trim()
  .min(1, SECRET_REQUIRED)
  .max(4000, 'The secret is too long');

export const InstallServiceBody = z.object({
  serviceId: z
    .string({ error: SERVICE_REQUIRED })
    .trim()
    .min(1, SERVICE_REQUIRED)
    .max(100, 'Not a valid service'),
  clientId: clientIdSchema,
  clientSecret: clientSecretSchema,
});
export const UpdateServiceBody = z.object({
  organizationServiceId: z.uuid('Not a valid id'),
  clientId: clientIdSchema,
  clientSecret: clientSecretSchema,
});
export type InstallServiceInput = z.input<typeof InstallServiceBody>;
export type UpdateServiceInput = z.input<typeof UpdateServiceBody>;

export const TrucksParams = z.object({ id: z.string().trim().min(1).max(100) });
const coordinate = (limit: number, name: string) =>
  z
    .string()
    .regex(/^-?\d{1,3}(\.\d{1,12})?$/, `Not a valid ${name}`)
    .transform(Number)
    .refine((value) => Math.abs(value) <= limit, `Not a valid ${name}`);
export const NearestTrucksParams = z.object({
  serviceId: z.string().trim().min(1).max(100),
  latitude: coordinate(90, 'latitude'),
  longitude: coordinate(180, 'longitude'),
});

/** What the install dialog shows of an installation: never the secret, only that one is set. */
export const OrganizationServiceDataSchema = z.object({
  organizationServiceId: z.string(),
  serviceId: z.string(),
  clientId: z.string().nullable(),
  secretSet: z.literal(true),
  installedAt: z.string(),
  updatedAt: z.string(),
});
export type OrganizationServiceData = z.infer<typeof OrganizationServiceDataSchema>;

/** The labels of the install dialog; `clientId` null when the provider has no client id (the field is not shown). */
export const CredentialLabelsSchema = z.object({
  clientId: z.string().nullable(),
  clientSecret: z.string(),
});
export type CredentialLabels = z.infer<typeof CredentialLabelsSchema>;

/** An ELD service of the catalogue, with the organization's installation; GET /api/account carries them too. */
export const CatalogueEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Null until installed (the dialog then shows Install), 'Installed' afterwards (Update). */
  status: z.literal('Installed').nullable(),
  organizationServiceData: OrganizationServiceDataSchema.nullable(),
  credentialLabels: CredentialLabelsSchema,
});
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>;

/** One truck as its ELD last reported it: speed in mph, heading in degrees clockwise from north, `updatedAt` ISO. */
export const EldTruckSchema = z.object({
  id: z.string(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  speed: z.number().nullable(),
  heading: z.number().nullable(),
  updatedAt: z.string(),
});
export type EldTruck = z.infer<typeof EldTruckSchema>;
/** A truck nearest to a point first, with its distance in miles (one decimal). */
export const NearTruckSchema = EldTruckSchema.extend({ distance: z.number() });
export type NearTruck = z.infer<typeof NearTruckSchema>;

/** 503: the provider is unreachable or asked us to wait (retry-after as it told us). */
const providerErrors = errorAnswers(503);

export const servicesContract = {
  catalogue: { response: { 200: z.array(CatalogueEntrySchema), ...guardedErrors } },
  install: {
    body: InstallServiceBody,
    response: {
      201: CatalogueEntrySchema,
      ...guardedErrors,
      ...errorAnswers(400, 409),
      ...providerErrors,
    },
  },
  update: {
    body: UpdateServiceBody,
    response: {
      200: CatalogueEntrySchema,
      ...guardedErrors,
      ...errorAnswers(400, 404, 409),
      ...providerErrors,
    },
  },
  /** 409: the provider refused the stored credentials (the answer says to update them). */
  trucks: {
    params: TrucksParams,
    response: {
      200: z.array(EldTruckSchema),
      ...guardedErrors,
      ...errorAnswers(400, 404, 409),
      ...providerErrors,
    },
  },
  nearestTrucks: {
    params: NearestTrucksParams,
    response: {
      200: z.array(NearTruckSchema),
      ...guardedErrors,
      ...errorAnswers(400, 404, 409),
      ...providerErrors,
    },
  },
};
