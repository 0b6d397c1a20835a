/** The signed-in user's own account: the Account Settings dialog's sections and their changes. */
import { optionalTermsSchema } from '../schemas/terms.schema.ts';
import { z } from 'zod';
import { organizationContactSchema, updateAccountBodySchema } from '../schemas/index.ts';
import { errorAnswers, guardedErrors, MessageAnswerSchema } from './common.ts';
import { OrganizationTypeSchema } from './auth.contract.ts';
import { FilePartSchema } from './registration.contract.ts';
import { TermsSchema } from './terms.contract.ts';
import { CatalogueEntrySchema } from './services.contract.ts';
import {
  ContactChangePendingSchema,
  contactChangeConfirmation,
  PendingContactChangeSchema,
} from './organizationContactChange.contract.ts';

/** A carrier's factor: who its invoices are paid to, from its notice of assignment. */
export const FactorSchema = z
  .object({
    name: z
      .string({ error: "Please enter the factor's name" })
      .trim()
      .min(1, { error: "Please enter the factor's name" })
      .max(200, { error: "The factor's name can have at most 200 characters" }),
    remitTo: z
      .string({ error: "Please enter the factor's remit-to address" })
      .trim()
      .min(1, { error: "Please enter the factor's remit-to address" })
      .max(500, { error: 'The remit-to address can have at most 500 characters' }),
    noticeFileId: z.uuid({ error: 'Please upload the notice of assignment' }),
  })
  .meta({ id: 'Factor' });

/** One line of a carrier's fleet: a truck type, trailer type or driver team id and how many. */
export const VehicleCountSchema = z
  .object({ type: z.number().int(), count: z.number().int() })
  .meta({ id: 'VehicleCount' });
export type VehicleCount = z.infer<typeof VehicleCountSchema>;

/** Stored file ids of the carrier's documents; null where none was uploaded. */
export const CarrierDocumentsSchema = z
  .object({
    mcAuthority: z.string().nullable(),
    certificateOfInsurance: z.string().nullable(),
    w9Form: z.string().nullable(),
    noticeOfAssignment: z.string().nullable(),
  })
  .meta({ id: 'CarrierDocuments' });
export type CarrierDocuments = z.infer<typeof CarrierDocumentsSchema>;

export const CarrierProfileSchema = z
  .object({
    mcNumber: z.number().nullable(),
    dotNumber: z.number().nullable(),
    eldProvider: z.string().nullable(),
    trucks: z.array(VehicleCountSchema),
    trailers: z.array(VehicleCountSchema),
    driverTeams: z.array(VehicleCountSchema),
    documents: CarrierDocumentsSchema,
  })
  .meta({ id: 'CarrierProfile' });
export type CarrierProfile = z.infer<typeof CarrierProfileSchema>;

/** insuredAmount 1 under $100,000.00, 2 over (catalog `insuredAmounts`). */
export const ShipperProfileSchema = z
  .object({
    insuredAmount: z.union([z.literal(1), z.literal(2)]),
    signatureFileId: z.string().nullable(),
  })
  .meta({ id: 'ShipperProfile' });
export type ShipperProfile = z.infer<typeof ShipperProfileSchema>;

/** GET /api/account: each section only where the caller may see it. */
export const AccountSchema = z
  .object({
    user: z
      .object({
        id: z.string(),
        name: z.string(),
        username: z.string(),
        email: z.string(),
        phone: z.string(),
        role: z.object({ id: z.number().int(), name: z.string() }),
        organizationId: z.string().nullable(),
        status: z.number().int(),
        statusName: z.string(),
        emailConfirmed: z.boolean(),
      })
      .optional(),
    organization: z
      .object({
        id: z.string(),
        name: z.string(),
        type: OrganizationTypeSchema,
        status: z.number().int(),
        statusName: z.string(),
        address: z.string(),
        person: z.string(),
        email: z.string(),
        phone: z.string(),
        /** A new contact waiting for its 24 hours; null when none waits. */
        pendingContactChange: PendingContactChangeSchema.nullable().optional(),
        /** A shipper's default accessorial terms for its new loads; null: the platform's. Not on a carrier. */
        defaultTerms: TermsSchema.nullable().optional(),
        /** A shipper's payment terms, net days. Not on a carrier. */
        paymentTermsDays: z.number().int().optional(),
        /** A carrier's factor; null: none. Not on a shipper. */
        factor: FactorSchema.nullable().optional(),
      })
      .optional(),
    shipper: ShipperProfileSchema.optional(),
    carrier: CarrierProfileSchema.optional(),
    /** The ELD catalogue with the organization's installations (carriers). */
    services: z.array(CatalogueEntrySchema).optional(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof AccountSchema>;

/** The four carrier documents as optional file parts (PDF, checked by their bytes). */
export const carrierDocumentParts = {
  mcAuthority: FilePartSchema.optional(),
  certificateOfInsurance: FilePartSchema.optional(),
  w9Form: FilePartSchema.optional(),
  noticeOfAssignment: FilePartSchema.optional(),
};

/**
 * Multipart bodies are read by the handler (files checked by their bytes, `data` validated naming
 * each wrong field); the schema documents the parts and lets the streamed body (null here) through
 * to that check.
 */
export const CarrierProfileFormSchema = z
  .object({
    data: z.string().meta({
      description:
        'The carrier profile as JSON: mcNumber, dotNumber, eldProvider, trucks, trailers, driverTeams',
    }),
    ...carrierDocumentParts,
  })
  .nullish();
export const ShipperProfileFormSchema = z
  .object({
    data: z.string().meta({ description: 'The shipper profile as JSON: insuredAmount' }),
    signature: FilePartSchema.optional(),
  })
  .nullish();

export const CarrierProfileChangedSchema = z
  .object({
    message: z.string(),
    /** The ids of the documents uploaded with this change. */
    documents: CarrierDocumentsSchema.partial(),
  })
  .meta({ id: 'CarrierProfileChanged' });
export type CarrierProfileChanged = z.infer<typeof CarrierProfileChangedSchema>;
export const ShipperProfileChangedSchema = z
  .object({ message: z.string(), signatureFileId: z.string().nullable() })
  .meta({ id: 'ShipperProfileChanged' });
export type ShipperProfileChanged = z.infer<typeof ShipperProfileChangedSchema>;

const changeErrors = { ...guardedErrors, ...errorAnswers(400, 404, 409) };
export const accountContract = {
  response: { 200: AccountSchema, ...guardedErrors, ...errorAnswers(404) },
};
export const updateAccountContract = {
  body: updateAccountBodySchema,
  response: { 200: MessageAnswerSchema, ...changeErrors },
};
export const updateOrganizationContract = {
  body: organizationContactSchema.extend({
    /** Every member must sign in with two-factor: from its next sign-in a member without it is sent to enrol. */
    twoFactorRequired: z.boolean().optional(),
    /** A shipper's default accessorial terms for its new loads (fields left out: the platform's); null: the platform's. */
    defaultTerms: optionalTermsSchema,
    /** A shipper's payment terms, net days (0 to 120; the platform's default is 30). Not on a carrier. */
    paymentTermsDays: z
      .number({ error: 'The payment terms are a number of days' })
      .int({ error: 'The payment terms are a whole number of days' })
      .min(0, { error: 'The payment terms cannot be negative' })
      .max(120, { error: 'The payment terms are at most 120 days' })
      .optional(),
    /** A carrier's factor from its notice of assignment (a file the carrier uploaded); null: none. Not on a shipper. */
    factor: FactorSchema.nullable().optional(),
    ...contactChangeConfirmation,
  }),
  response: { 200: MessageAnswerSchema, 202: ContactChangePendingSchema, ...changeErrors },
};
export const updateCarrierContract = {
  consumes: ['multipart/form-data'],
  body: CarrierProfileFormSchema,
  response: { 200: CarrierProfileChangedSchema, ...changeErrors, ...errorAnswers(413, 415) },
};
export const updateShipperContract = {
  consumes: ['multipart/form-data'],
  body: ShipperProfileFormSchema,
  response: { 200: ShipperProfileChangedSchema, ...changeErrors, ...errorAnswers(413, 415) },
};
