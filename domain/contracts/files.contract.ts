/** Stored documents (contracts, rate confirmations, carrier documents, signatures), downloaded by their id. */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

/** The mime types a stored file has: documents are PDFs, signatures images, imports CSV. */
export const fileMimeTypes = ['application/pdf', 'image/jpeg', 'image/png', 'text/csv'] as const;

const fileBytes = (mime: string) => ({
  schema: z
    .custom<Uint8Array>()
    .meta({ type: 'string', format: 'binary', description: `The file's bytes (${mime})` }),
});

export const filesContract = {
  /**
   * The bytes as stored, with their content type and an attachment disposition; a file the caller
   * may not read answers 404 as a missing one does.
   */
  download: {
    params: IdParamsSchema,
    response: {
      200: {
        description: 'The file',
        content: Object.fromEntries(fileMimeTypes.map((mime) => [mime, fileBytes(mime)])),
      },
      ...guardedErrors,
      ...errorAnswers(400, 404),
    },
  },
};
