/** The invoices calls (docs/api.md "Invoices"). */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema, tableAnswerOf } from './common.ts';

export const INVOICE_STATUSES = [
  'draft',
  'submitted',
  'approved',
  'disputed',
  'scheduled',
  'paid',
  'received',
  'overdue',
] as const;
const LINE_KINDS = ['linehaul', 'detention', 'tonu', 'layover', 'lumper'] as const;

/** A row of GET invoices: `overdue` is read from the due date of an unpaid invoice. */
export const InvoiceRowSchema = z
  .object({
    id: z.string(),
    number: z.string(),
    loadId: z.string(),
    loadGuid: z.string(),
    tourId: z.string(),
    carrierOrganizationId: z.string(),
    shipperOrganizationId: z.string(),
    carrier: z.string().nullable(),
    shipper: z.string().nullable(),
    status: z.enum(INVOICE_STATUSES),
    total: z.number(),
    dueAt: z.string().nullable(),
    submittedAt: z.string().nullable(),
    paidAt: z.string().nullable(),
    draftedAt: z.string(),
  })
  .meta({ id: 'InvoiceRow' });
export type InvoiceRowAnswer = z.infer<typeof InvoiceRowSchema>;

export const InvoiceSchema = InvoiceRowSchema.extend({
  lines: z.array(
    z.object({
      kind: z.enum(LINE_KINDS),
      claimId: z.string().optional(),
      description: z.string(),
      amount: z.number(),
      /** 'disputed': the shipper disputes this line (`reason` says why). */
      status: z.enum(['open', 'disputed']),
      reason: z.string().nullable(),
    }),
  ),
  remitTo: z.object({ name: z.string(), address: z.string(), factor: z.boolean() }),
  termsDays: z.number().int(),
  pdfFileId: z.string().nullable(),
  reference: z.string().nullable(),
  /** The payment date the shipper scheduled (YYYY-MM-DD). */
  scheduledFor: z.string().nullable(),
  paymentReference: z.string().nullable(),
  /** The carrier's answer to the last dispute. */
  answer: z.string().nullable(),
  /** Where the invoice stands, without the read `overdue` (what an overdue invoice may take next). */
  stage: z.enum(['draft', 'submitted', 'approved', 'disputed', 'scheduled', 'paid', 'received']),
  /** While the invoice waits for the shipper: when silence approves it. */
  silenceApprovesAt: z.string().nullable(),
}).meta({ id: 'Invoice' });
export type InvoiceAnswer = z.infer<typeof InvoiceSchema>;

export const InvoicesTableSchema = tableAnswerOf(InvoiceRowSchema);

const text = (field: string, message: string, max = 2000) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `The ${field} can have at most ${max} characters` });

export const SubmitInvoiceBodySchema = z.object({
  reference: z
    .string({ error: 'reference must be a text' })
    .trim()
    .max(100, { error: 'The reference can have at most 100 characters' })
    .optional(),
});
export const DisputeInvoiceBodySchema = z.object({
  lines: z
    .array(
      z.object({
        index: z
          .number({ error: 'Please name the line by its index' })
          .int({ error: 'A line index is a whole number' })
          .min(0, { error: 'A line index is a whole number from 0' })
          .max(1000, { error: 'The invoice has no such line' }),
        reason: text('reason', 'Please say why you dispute the line'),
      }),
      { error: 'Please name the lines you dispute' },
    )
    .min(1, { error: 'Please name at least one line you dispute' })
    .max(100, { error: 'At most 100 lines' }),
});
export const AnswerInvoiceBodySchema = z.object({
  text: text('answer', 'Please write your answer'),
});
export const ScheduleInvoiceBodySchema = z.object({
  date: z
    .string({ error: 'Please enter the payment date as YYYY-MM-DD' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Please enter the payment date as YYYY-MM-DD' }),
});
export const PayInvoiceBodySchema = z.object({
  reference: text('reference', 'Please enter the payment reference', 100),
  paidAt: z
    .string({ error: 'Please enter the payment date' })
    .regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/, {
      error: 'Please enter the payment date as YYYY-MM-DD or an ISO 8601 instant',
    }),
});
export const ReceiptInvoiceBodySchema = z.object({
  received: z.boolean({ error: 'received is true or false' }),
});

const invoiceAnswer = { 200: InvoiceSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) };

export const invoicesContract = {
  get: {
    params: IdParamsSchema,
    response: { 200: InvoiceSchema, ...guardedErrors, ...errorAnswers(400, 404) },
  },
  submit: { params: IdParamsSchema, body: SubmitInvoiceBodySchema, response: invoiceAnswer },
  approve: { params: IdParamsSchema, response: invoiceAnswer },
  dispute: { params: IdParamsSchema, body: DisputeInvoiceBodySchema, response: invoiceAnswer },
  answer: { params: IdParamsSchema, body: AnswerInvoiceBodySchema, response: invoiceAnswer },
  schedule: { params: IdParamsSchema, body: ScheduleInvoiceBodySchema, response: invoiceAnswer },
  pay: { params: IdParamsSchema, body: PayInvoiceBodySchema, response: invoiceAnswer },
  receipt: { params: IdParamsSchema, body: ReceiptInvoiceBodySchema, response: invoiceAnswer },
  confirmDelivery: {
    params: IdParamsSchema,
    response: {
      /** `invoiceId` null: the draft comes a moment later (from the log). */
      200: z.object({ tourId: z.string(), invoiceId: z.string().nullable() }),
      ...guardedErrors,
      ...errorAnswers(400, 404, 409),
    },
  },
};
