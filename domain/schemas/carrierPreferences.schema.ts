/** The body of PUT carriers/preferences: a shipper's preferred and blocked carriers (organization ids). */
import { z } from 'zod';

const idList = (name: string) =>
  z
    .array(z.string({ error: `${name} must list organization ids` }), {
      error: `${name} must be a list of organization ids`,
    })
    .max(500, { error: `${name} lists at most 500 carriers` });

export const carrierPreferencesBodySchema = z.object(
  { preferred: idList('preferred'), blocked: idList('blocked') },
  { error: 'The body must be {preferred: [organizationId], blocked: [organizationId]}' },
);
export type CarrierPreferencesBody = z.output<typeof carrierPreferencesBodySchema>;
