/**
 * EDI (docs/api.md "EDI"): a shipper's X12 trading partners, the interchanges they send (204 load
 * tenders, answered by a 997 per functional group) and the documents we send them (990, 214, 210,
 * 997), delivered to their HTTPS endpoint or kept in their mailbox.
 */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema, tableAnswerOf } from './common.ts';

export { IdParamsSchema as EdiIdParamsSchema };

export const EDI_DOCUMENT_TYPES = ['204', '990', '214', '210', '997'] as const;
export type EdiDocumentType = (typeof EDI_DOCUMENT_TYPES)[number];
/** In: 'accepted' or 'rejected'. Out: 'queued', 'retrying', 'delivered' or 'failed' (to a URL); 'waiting' or 'fetched' (mailbox). */
export const EDI_DOCUMENT_STATUSES = [
  'accepted',
  'rejected',
  'queued',
  'retrying',
  'delivered',
  'failed',
  'waiting',
  'fetched',
] as const;
export type EdiDocumentStatus = (typeof EDI_DOCUMENT_STATUSES)[number];

/** A shipper keeps at most this many partners. */
export const MAX_EDI_PARTNERS = 20;
export const EDI_PARTNER_LIMIT_MESSAGE = `An organization keeps at most ${MAX_EDI_PARTNERS} EDI partners`;

const separator = (name: string) =>
  z
    .string({ error: `The ${name} separator is one character` })
    .length(1, `The ${name} separator is one character`)
    .refine((value) => !/[A-Za-z0-9 ]/.test(value), {
      error: `The ${name} separator may not be a letter, a digit or a space`,
    });

export const EdiSeparatorsSchema = z
  .object({
    element: separator('element'),
    segment: separator('segment'),
    subElement: separator('sub-element'),
  })
  .refine((value) => new Set([value.element, value.segment, value.subElement]).size === 3, {
    error: 'The three separators must differ',
  });
export type EdiSeparators = z.infer<typeof EdiSeparatorsSchema>;
export const DEFAULT_EDI_SEPARATORS: EdiSeparators = {
  element: '*',
  segment: '~',
  subElement: '>',
};

/** The characters an X12 id may hold (the basic character set, without separators). */
const X12_ID = /^[A-Za-z0-9 ._\-/&()]+$/;

export const EdiPartnerBodySchema = z.object({
  name: z
    .string({ error: 'Please enter the name' })
    .trim()
    .min(1, 'Please enter the name')
    .max(100, 'The name is at most 100 characters'),
  isaQualifier: z
    .string({ error: 'The ISA qualifier is two characters, such as ZZ or 02' })
    .trim()
    .regex(/^[A-Za-z0-9]{2}$/, 'The ISA qualifier is two characters, such as ZZ or 02')
    .transform((value) => value.toUpperCase()),
  isaId: z
    .string({ error: 'Please enter the ISA id' })
    .trim()
    .min(1, 'Please enter the ISA id')
    .max(15, 'The ISA id is at most 15 characters')
    .regex(X12_ID, 'The ISA id holds letters, digits, spaces and . _ - / & ( ) only'),
  gsId: z
    .string({ error: 'Please enter the GS id' })
    .trim()
    .min(2, 'The GS id is 2 to 15 characters')
    .max(15, 'The GS id is 2 to 15 characters')
    .regex(X12_ID, 'The GS id holds letters, digits, spaces and . _ - / & ( ) only'),
  separators: EdiSeparatorsSchema.optional(),
  deliver: z.union(
    [
      z.object({
        url: z
          .string({ error: 'Please enter the URL' })
          .trim()
          .min(1, 'Please enter the URL')
          .max(2000, 'The URL is at most 2000 characters'),
      }),
      z.object({ mailbox: z.literal(true, { error: 'mailbox is true' }) }),
    ],
    { error: 'deliver is {url} or {mailbox: true}' },
  ),
});
export type EdiPartnerBody = z.input<typeof EdiPartnerBodySchema>;

export const EdiPartnerSchema = z.object({
  id: z.string(),
  name: z.string(),
  isaQualifier: z.string(),
  isaId: z.string(),
  gsId: z.string(),
  separators: z.object({ element: z.string(), segment: z.string(), subElement: z.string() }),
  deliver: z.union([z.object({ url: z.string() }), z.object({ mailbox: z.literal(true) })]),
  createdAt: z.string(),
});
export type EdiPartner = z.infer<typeof EdiPartnerSchema>;

export const EdiPartnerCreatedSchema = z.object({
  id: z.string(),
  apiKey: z
    .string()
    .meta({ description: 'The key the partner sends as `Authorization: Bearer`: shown only here' }),
  signingSecret: z.string().nullable().meta({
    description:
      'For a URL partner, the `whsec_` secret that signs deliveries (as webhooks are signed): shown only here; null for a mailbox',
  }),
});
export type EdiPartnerCreated = z.infer<typeof EdiPartnerCreatedSchema>;

/** What is wrong in an interchange: the segment (its tag and position in the set), the element, why. */
export const EdiErrorSchema = z.object({
  segment: z.string(),
  position: z.number().int().nullable(),
  element: z.number().int().nullable(),
  code: z.string(),
  reason: z.string(),
});
export type EdiError = z.infer<typeof EdiErrorSchema>;

export const EdiTransactionResultSchema = z.object({
  setControlNumber: z.string(),
  type: z.string(),
  result: z.enum(['accepted', 'rejected']),
  loadId: z.string().optional(),
  errors: z.array(EdiErrorSchema).optional(),
});
export type EdiTransactionResult = z.infer<typeof EdiTransactionResultSchema>;

export const EdiInboundAnswerSchema = z.object({
  interchangeControlNumber: z.string().nullable(),
  transactions: z.array(EdiTransactionResultSchema),
  /** What is wrong with the interchange or a functional group as a whole (then no transaction is accepted). */
  errors: z.array(EdiErrorSchema).optional(),
});
export type EdiInboundAnswer = z.infer<typeof EdiInboundAnswerSchema>;

export const EdiDocumentRowSchema = z.object({
  id: z.string(),
  partnerId: z.string(),
  partner: z.string(),
  direction: z.enum(['in', 'out']),
  type: z.string(),
  controlNumber: z.string(),
  loadId: z.string().nullable(),
  loadGuid: z.string().nullable().meta({ description: "The load's short id, null without a load" }),
  code: z.string().nullable().meta({
    description:
      "What a 990 or 214 we sent says: the 990's B104 (`A` accepted, `D` declined), the 214's AT701 (`X3`, `AF`, `X1`, `D1`); null for the others",
  }),
  status: z.string(),
  errors: z.array(EdiErrorSchema),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  at: z.string(),
});
export type EdiDocumentRow = z.infer<typeof EdiDocumentRowSchema>;
export const EdiDocumentsSchema = tableAnswerOf(EdiDocumentRowSchema);

export const EdiMailboxDocumentSchema = z.object({
  id: z.string(),
  type: z.string(),
  controlNumber: z.string(),
  loadId: z.string().nullable(),
  at: z.string(),
  raw: z.string(),
});
/** POST edi/inbound: the interchange as text (`application/edi-x12` or `text/plain`). */
export const EdiInboundBodySchema = z
  .string({ error: 'Send the interchange as application/edi-x12 or text/plain' })
  .min(1, 'The interchange is empty');

export const EdiMailboxAckBodySchema = z.object({
  ids: z
    .array(z.uuid('Not a valid id'), { error: 'ids is a list of document ids' })
    .min(1, 'ids is a list of document ids')
    .max(500, 'At most 500 ids at once'),
});

const unauthorized = errorAnswers(401, 429);
export const ediAnswers = {
  partners: { 200: z.array(EdiPartnerSchema), ...guardedErrors },
  createPartner: { 201: EdiPartnerCreatedSchema, ...errorAnswers(400, 409), ...guardedErrors },
  inbound: { 202: EdiInboundAnswerSchema, ...errorAnswers(400, 413, 415), ...unauthorized },
  documents: { 200: EdiDocumentsSchema, ...errorAnswers(400), ...guardedErrors },
  raw: {
    200: {
      content: {
        'application/edi-x12': { schema: z.string().meta({ description: 'The X12 text' }) },
      },
    },
    ...errorAnswers(400, 404),
    ...guardedErrors,
  },
  resend: {
    202: z.object({ id: z.string(), status: z.string() }),
    ...errorAnswers(400, 404, 409),
    ...guardedErrors,
  },
  mailbox: { 200: z.array(EdiMailboxDocumentSchema), ...unauthorized },
  mailboxAck: {
    200: z.object({ acknowledged: z.number().int() }),
    ...errorAnswers(400),
    ...unauthorized,
  },
};
