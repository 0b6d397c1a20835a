/**
 * The offers calls: a carrier's bid on a load, the shipper's answers, the tables of offers, the signed
 * contract and the rate confirmation.
 */
import { z } from 'zod';
import { termsInputSchema } from '../schemas/terms.schema.ts';
import { TermsSchema } from './terms.contract.ts';
import {
  checkedInside,
  errorAnswers,
  guardedErrors,
  IdParamsSchema,
  tableAnswerOf,
  TrustSchema,
} from './common.ts';

export const PRICE_MESSAGE = 'Please enter a price greater than 0';
export const PRICE_MAX = 1_000_000;
export const PRICE_TOO_HIGH_MESSAGE = 'Please enter a price of at most $1,000,000';
// A JSON number only: true, [2500] and "0x10" were coerced to prices once.
const price = z
  .number({ error: PRICE_MESSAGE })
  .positive({ error: PRICE_MESSAGE, abort: true })
  .max(PRICE_MAX, { error: PRICE_TOO_HIGH_MESSAGE, abort: true })
  // Cents compared with a tolerance: in binary floating point 1024.10 * 100 is 102409.99999999999.
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'A price has at most 2 decimals',
  })
  .transform((value) => Math.round(value * 100) / 100);

/** POST proposal/{loadId}: an offer. */
export const OfferBody = z.object({
  price,
  message: z
    .string()
    .trim()
    .max(2000, { error: 'A message can have at most 2000 characters' })
    .default(''),
  eldTruckName: z
    .string({ error: 'eldTruckName must be a text' })
    .trim()
    .max(100, { error: 'A truck name can have at most 100 characters' })
    .nullish()
    .transform((value) => value || null),
  /** The offer's own accessorial terms: the fields it names replace the load's. */
  terms: termsInputSchema.optional(),
});
export type OfferBody = z.input<typeof OfferBody>;

/** PUT proposal/{id}: 5 accept, 12 decline, 11 counter (with price), 10 accept counter, 7 withdraw. */
export const OfferChangeBody = z
  .object({
    status: z
      .number({ error: 'Please choose what to do with the offer' })
      .refine((status) => [5, 7, 10, 11, 12].includes(status), {
        error: 'status is one of 5 accept, 12 decline, 11 counter, 10 accept counter, 7 withdraw',
      }),
    message: z
      .string({ error: 'message must be a text' })
      .trim()
      .max(2000, { error: 'A message can have at most 2000 characters' })
      .default(''),
    price: price.nullish().transform((value) => value ?? null),
    /** With a counter (11): the shipper's answer to the terms on the table. */
    terms: termsInputSchema.optional(),
  })
  .refine((body) => body.status !== 11 || body.price !== null, {
    error: PRICE_MESSAGE,
    path: ['price'],
  });
export type OfferChangeBody = z.input<typeof OfferChangeBody>;

// Checked inside with parseWith, so a missing body still names the price (not `body`): documented here.
export const OfferBodySchema = checkedInside(OfferBody);
export const OfferChangeBodySchema = checkedInside(OfferChangeBody);
/** The signed contract: multipart, the plain field `status` (14) and the file `contract` (a PDF); read inside by readMultipart (the body Fastify sees is empty). */
export const ContractUploadBodySchema = z.unknown().meta({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['14'] },
    contract: { type: 'string', format: 'binary' },
  },
  required: ['status', 'contract'],
});

export const LoadIdParamsSchema = z.object({ loadId: z.uuid('Not a valid id') });
/** GET and POST proposal/{id}: the load's id (named `id` as PUT proposal/{id}, the offer's, names it: one path, one parameter name). */
export const OffersOfLoadParamsSchema = z.object({
  id: z.uuid('Not a valid id').meta({ description: "The load's id" }),
});
export const OfferParamsSchema = z.object({
  loadId: z.uuid('Not a valid id'),
  proposalId: z.uuid('Not a valid id'),
});
export { IdParamsSchema as OfferIdParamsSchema };

const OfferPlaceSchema = z.object({
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  time: z.string().nullable(),
  timezone: z.string(),
});

/** An offer, as its tables and GET proposal/{loadId}/proposal/{proposalId} give it. */
export const OfferRowSchema = z.object({
  id: z.string(),
  loadId: z.string(),
  loadGuid: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  price: z.number().nullable(),
  counterPrice: z.number().nullable(),
  /** The offer's own accessorial terms; null: it goes with the load's. */
  terms: TermsSchema.nullable(),
  /** The terms the shipper's counter proposed (with `counterPrice`); null: none proposed. */
  counterTerms: TermsSchema.nullable(),
  message: z.string(),
  eldTruckName: z.string().nullable(),
  submittedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  carrier: z.object({
    id: z.string(),
    name: z.string(),
    ratings: z.record(z.string(), z.number()),
  }),
  tourId: z.string().nullable(),
  contractFileId: z.string().nullable(),
  /** The load's places: in the carrier's and the Superadmin's tables, not on one load's. */
  load: z
    .object({
      guid: z.string(),
      status: z.number().int(),
      statusName: z.string(),
      pickup: OfferPlaceSchema,
      dropoff: OfferPlaceSchema,
      weight: z.number(),
      commodity: z.string(),
      expiration: z.string().nullable(),
      /** The load's accessorial terms; null: none. */
      terms: TermsSchema.nullable(),
    })
    .optional(),
  actions: z.array(z.number().int()),
  /** What the load's shipper may answer now. */
  canAccept: z.boolean(),
  canCounter: z.boolean(),
  canDecline: z.boolean(),
  /**
   * The proposing carrier's trust flags that apply before acceptance (authority, insurance,
   * trucks, a recent contact change): on the offers of one load, to its shipper and a Superadmin.
   */
  trust: TrustSchema.optional(),
});
export type OfferRow = z.infer<typeof OfferRowSchema>;
export const OffersAnswerSchema = tableAnswerOf(OfferRowSchema);

export const OfferAnswerSchema = z.object({ id: z.string(), message: z.string() });
export const OfferChangedAnswerSchema = z.object({
  id: z.string(),
  status: z.number().int(),
  statusName: z.string(),
});
export const ContractUploadedAnswerSchema = z.object({
  proposalId: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  contractFileId: z.string(),
});
export type ContractUploadedAnswer = z.infer<typeof ContractUploadedAnswerSchema>;

/** The rate confirmation PDF (its SHA-256 in the x-content-sha256 header). */
export const RateConfirmationAnswer = {
  content: {
    'application/pdf': {
      schema: z
        .custom<Uint8Array>()
        .meta({ type: 'string', format: 'binary', description: 'The rate confirmation PDF' }),
    },
  },
};

/** POST loads/{id}/book: an empty body. */
export const BookNowBody = z.object({});
export const BookNowBodySchema = checkedInside(BookNowBody);
/** The accepted offer a Book Now booking made, and its tour. */
export const BookedAnswerSchema = z.object({ proposalId: z.string(), tourId: z.string() });

export const offersAnswers = {
  book: { 201: BookedAnswerSchema, ...errorAnswers(400, 404, 409), ...guardedErrors },
  onLoad: { 200: OffersAnswerSchema, ...errorAnswers(400, 404), ...guardedErrors },
  one: { 200: OfferRowSchema, ...errorAnswers(400, 404), ...guardedErrors },
  submit: {
    200: OfferAnswerSchema,
    201: OfferAnswerSchema,
    ...errorAnswers(400, 404, 409),
    ...guardedErrors,
  },
  change: { 200: OfferChangedAnswerSchema, ...errorAnswers(400, 404, 409), ...guardedErrors },
  contract: {
    200: ContractUploadedAnswerSchema,
    ...errorAnswers(400, 404, 409, 413, 415),
    ...guardedErrors,
  },
  rateConfirmation: { 200: RateConfirmationAnswer, ...errorAnswers(400, 404), ...guardedErrors },
  table: { 200: OffersAnswerSchema, ...errorAnswers(400), ...guardedErrors },
};
