/** The accessorial terms as answers carry them (GET loads/{id}, the load rows, the offers). */
import { z } from 'zod';

export const TermsSchema = z.object({
  freeTimeHours: z.object({ pickup: z.number(), delivery: z.number() }),
  detentionPerHour: z.number(),
  detentionCap: z.number().nullable(),
  tonu: z.number(),
  layoverPerDay: z.number(),
  lumper: z.enum(['shipper', 'carrier-reimbursed']),
  graceMinutes: z.number().int(),
  disputeWindowHours: z.number().int(),
});
