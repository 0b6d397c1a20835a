/** Carrier authority (docs/api.md "Carrier authority"): the Superadmin's FMCSA import and a carrier's authority. */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export const FmcsaImportBodySchema = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

export const FmcsaImportedSchema = z.object({ rows: z.number().int() });

export const CarrierAuthoritySchema = z.object({
  dotNumber: z.number().int().nullable(),
  mcNumber: z.number().int().nullable(),
  status: z.enum(['active', 'inactive', 'revoked', 'unknown']),
  insuranceOnFile: z.boolean(),
  checkedAt: z.string(),
  source: z.enum(['import', 'qcmobile']),
});

export const fmcsaContracts = {
  import: {
    consumes: ['multipart/form-data'],
    body: FmcsaImportBodySchema,
    response: { 202: FmcsaImportedSchema, ...guardedErrors, ...errorAnswers(400, 413, 415) },
  },
  authority: {
    params: IdParamsSchema,
    response: { 200: CarrierAuthoritySchema, ...guardedErrors, ...errorAnswers(400, 404) },
  },
};
