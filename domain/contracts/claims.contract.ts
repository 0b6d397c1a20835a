/** The accessorial claims calls (docs/api.md "Accessorial terms and claims"). */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export const ClaimParamsSchema = z.object({
  id: z.uuid('Not a valid id'),
  claimId: z.uuid('Not a valid id'),
});

export const ClaimEvidenceSchema = z.object({
  arrivedAt: z.string().nullable(),
  leftAt: z.string().nullable(),
  appointmentAt: z.string().nullable(),
  positionsInside: z.array(
    z.object({ latitude: z.number(), longitude: z.number(), at: z.string() }),
  ),
  receiptFileId: z.string().optional(),
  canceledAt: z.string().optional(),
  committed: z.enum(['confirmed', 'dispatched']).optional(),
});

/** A claim: its amount comes from the agreed terms and the recorded evidence only. */
export const ClaimSchema = z.object({
  id: z.string(),
  tourId: z.string(),
  kind: z.enum(['detention', 'tonu', 'layover', 'lumper']),
  stopIndex: z.number().int().nullable(),
  minutes: z.number().int(),
  amount: z.number(),
  status: z.enum(['claimed', 'approved', 'disputed', 'answered', 'settled']),
  evidence: ClaimEvidenceSchema,
  /** The carrier's latest words on it (a note or its answer to a dispute). */
  note: z.string().nullable(),
  /** When silence approves it. */
  dueAt: z.string(),
  claimedAt: z.string(),
  disputeReason: z.string().nullable(),
  answer: z.string().nullable(),
  /** 'silence': approved by the passing of time, not by a person. */
  approvedBy: z.enum(['shipper', 'silence']).nullable(),
  settledAmount: z.number().nullable(),
  settlementNote: z.string().nullable(),
});
export type ClaimAnswer = z.infer<typeof ClaimSchema>;

const text = (field: string, message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(2000, { error: `The ${field} can have at most 2000 characters` });

export const DisputeBodySchema = z.object({
  reason: text('reason', 'Please say why you dispute the claim'),
});
export const AnswerBodySchema = z.object({ text: text('answer', 'Please write your answer') });
export const NoteBodySchema = z.object({ text: text('note', 'Please write your note') });
export const SettleBodySchema = z.object({
  amount: z
    .number({ error: 'Please enter the settled amount' })
    .min(0, { error: 'The settled amount cannot be negative' })
    .max(100_000, { error: 'The settled amount can be at most $100,000' }),
  note: z
    .string({ error: 'note must be a text' })
    .trim()
    .max(2000, { error: 'The note can have at most 2000 characters' })
    .default(''),
});
/** The `data` field of POST tours/{id}/lumper. */
export const LumperDataSchema = z.object({
  amount: z
    .number({ error: 'Please enter the receipt amount' })
    .positive({ error: 'Please enter the receipt amount' })
    .max(100_000, { error: 'The receipt amount can be at most $100,000' }),
});
/** The lumper receipt: multipart, read inside (the body Fastify sees is empty); documented here. */
export const LumperUploadBodySchema = z.unknown().meta({
  type: 'object',
  properties: {
    data: { type: 'string', description: 'JSON {amount}' },
    receipt: { type: 'string', format: 'binary', description: 'JPEG or PNG photo of the receipt' },
  },
  required: ['data', 'receipt'],
});

const claimAnswer = { 200: ClaimSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) };

export const claimsContract = {
  list: {
    params: IdParamsSchema,
    response: { 200: z.array(ClaimSchema), ...guardedErrors, ...errorAnswers(400, 404) },
  },
  approve: { params: ClaimParamsSchema, response: claimAnswer },
  dispute: { params: ClaimParamsSchema, body: DisputeBodySchema, response: claimAnswer },
  answer: { params: ClaimParamsSchema, body: AnswerBodySchema, response: claimAnswer },
  note: { params: ClaimParamsSchema, body: NoteBodySchema, response: claimAnswer },
  settle: { params: ClaimParamsSchema, body: SettleBodySchema, response: claimAnswer },
  lumper: {
    params: IdParamsSchema,
    consumes: ['multipart/form-data'],
    body: LumperUploadBodySchema,
    response: {
      201: ClaimSchema,
      ...guardedErrors,
      ...errorAnswers(400, 404, 409, 413, 415),
    },
  },
};
