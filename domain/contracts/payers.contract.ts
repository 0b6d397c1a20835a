/**
 * Days-to-pay and aging (docs/api.md "Days-to-pay and aging"): how a shipper pays its carriers'
 * invoices (GET insights/payers/{organizationId}) and how far past due the caller's open invoices
 * are (GET insights/aging).
 */
import { z } from 'zod';
import { agingLabels, payerWindows } from '../invoices/payerFigures.ts';
import { errorAnswers, guardedErrors } from './common.ts';

export const PayerParamsSchema = z.object({ organizationId: z.uuid('Not a valid id') });

export const PayerQuerySchema = z.object({
  window: z.enum(payerWindows, { error: 'window is 90d or 365d' }).default('365d'),
});

/** A shipper's figures over the window; all but `paidCount` null with status 'new' under 3 paid invoices. */
export const PayerFiguresSchema = z.object({
  paidCount: z.number().int(),
  /** Days from submission to payment, to one decimal. */
  medianDaysToPay: z.number().nullable(),
  /** Nearest-rank 90th percentile of the days to pay. */
  p90DaysToPay: z.number().nullable(),
  /** 0 to 1: the paid invoices paid by their due date. */
  paidWithinTermsShare: z.number().nullable(),
  /** The total of invoices unpaid past their due date, due inside the window. */
  overdueAmount: z.number().nullable(),
  window: z.enum(payerWindows),
  status: z.enum(['new', 'measured']),
});
export type PayerFiguresAnswer = z.infer<typeof PayerFiguresSchema>;

/** The payer figure of a load's shipper over the last 365 days, on load rows and a load's details. */
export const LoadPayerSchema = z.object({
  medianDaysToPay: z.number().nullable(),
  paidWithinTermsShare: z.number().nullable(),
  status: z.enum(['new', 'measured']),
});
export type LoadPayerAnswer = z.infer<typeof LoadPayerSchema>;

export const AgingQuerySchema = z.object({
  format: z.enum(['json', 'csv'], { error: 'format is json or csv' }).default('json'),
});

export const AgingSchema = z.object({
  buckets: z.array(
    z.object({ label: z.enum(agingLabels), count: z.number().int(), amount: z.number() }),
  ),
  /** A carrier's receivables or a shipper's payables. */
  side: z.enum(['receivable', 'payable']),
});
export type AgingAnswer = z.infer<typeof AgingSchema>;

export const payersAnswers = {
  payer: { 200: PayerFiguresSchema, ...errorAnswers(400, 404), ...guardedErrors },
  aging: {
    200: {
      content: {
        'application/json': { schema: AgingSchema },
        'text/csv': {
          schema: z.string().meta({ description: 'format=csv: one line per bucket' }),
        },
      },
    },
    ...errorAnswers(400),
    ...guardedErrors,
  },
};
