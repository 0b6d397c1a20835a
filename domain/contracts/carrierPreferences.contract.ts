/** A shipper's preferred and blocked carriers (docs/api.md "Preferred and blocked carriers"). */
import { z } from 'zod';
import { carrierPreferencesBodySchema } from '../schemas/carrierPreferences.schema.ts';
import { checkedInside, errorAnswers, guardedErrors } from './common.ts';

// Checked inside with parseWith, so a wrong id is refused under its place (`preferred.0`): documented here.
export const CarrierPreferencesBodySchema = checkedInside(carrierPreferencesBodySchema);

export const CarrierPreferencesSchema = z.object({
  preferred: z.array(z.string()),
  blocked: z.array(z.string()),
});
export type CarrierPreferencesAnswer = z.infer<typeof CarrierPreferencesSchema>;

/** An Active carrier a shipper may put on one of its lists. */
export const CarrierChoiceSchema = z.object({ id: z.string(), name: z.string() });
export type CarrierChoice = z.infer<typeof CarrierChoiceSchema>;

export const carrierPreferencesAnswers = {
  get: { 200: CarrierPreferencesSchema, ...guardedErrors },
  put: { 200: CarrierPreferencesSchema, ...errorAnswers(400), ...guardedErrors },
  choices: { 200: z.array(CarrierChoiceSchema), ...guardedErrors },
};
