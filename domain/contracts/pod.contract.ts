/**
 * Proof of delivery (docs/api.md "Proof of delivery"): the assigned driver sends who received the
 * goods, a note, photos and the receiver's signature from the last stop; the tour's parties read it.
 */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export const POD_MAX_PHOTOS = 5;
export const POD_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const POD_RECEIVED_BY_MAX = 120;
export const POD_NOTE_MAX = 1000;

/** The multipart field `data`: a JSON object. `id` (a UUID made on the phone) makes a retry record the proof once. */
export const PodDataSchema = z.object(
  {
    id: z.uuid({ error: 'id must be a UUID' }).optional(),
    receivedBy: z
      .string({ error: 'Please enter who received the goods' })
      .trim()
      .min(1, { error: 'Please enter who received the goods' })
      .max(POD_RECEIVED_BY_MAX, { error: `At most ${POD_RECEIVED_BY_MAX} characters` }),
    note: z
      .string({ error: 'note must be text' })
      .max(POD_NOTE_MAX, { error: `At most ${POD_NOTE_MAX} characters` })
      .nullish(),
  },
  { error: 'data must be a JSON object' },
);
export type PodData = z.infer<typeof PodDataSchema>;

export const PodUploadBodySchema = z.unknown().meta({
  type: 'object',
  properties: {
    data: {
      type: 'string',
      description: 'JSON: {"id"?: uuid, "receivedBy": string, "note"?: string}',
    },
    photo: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      maxItems: POD_MAX_PHOTOS,
      description: 'JPEG or PNG, up to 5, 10 MB each',
    },
    signature: { type: 'string', format: 'binary', description: 'PNG' },
  },
  required: ['data'],
});

export const PodFileSchema = z.object({
  id: z.string(),
  kind: z.enum(['photo', 'signature']),
  name: z.string(),
});
export const PodSchema = z.object({
  id: z.string(),
  receivedBy: z.string(),
  note: z.string().nullable(),
  at: z.string(),
  files: z.array(PodFileSchema),
});
export type Pod = z.infer<typeof PodSchema>;

export const podContract = {
  record: {
    params: IdParamsSchema,
    consumes: ['multipart/form-data'],
    body: PodUploadBodySchema,
    response: {
      201: z.object({ id: z.string() }),
      ...guardedErrors,
      ...errorAnswers(400, 404, 409, 413, 415),
    },
  },
  list: {
    params: IdParamsSchema,
    response: { 200: z.array(PodSchema), ...guardedErrors, ...errorAnswers(400, 404) },
  },
};
