/**
 * The pieces every call of the HTTP contract shares: the error answer, the table protocol's answer,
 * ids in the path. Routes declare their params, query, body and every answer with zod schemas from
 * `domain/contracts/<area>.contract.ts`; Fastify validates input and serializes output from them,
 * `/api/docs` publishes them, and the client imports their inferred types.
 */
import { z } from 'zod';

/** One field's error: where (dotted path) and what, with its stable code when it has one. */
export const FieldErrorSchema = z
  .object({
    path: z.string(),
    message: z.string(),
    code: z.string().optional(),
  })
  .meta({ id: 'FieldError' });

/**
 * Every 4xx and 5xx answer: the status, its reason phrase, the English message, a stable `code` a
 * client translates by (the English may be reworded, the code stays), and per-field errors on a 400.
 */
export const ErrorBodySchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
    code: z.string(),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The error answers a route can give, by status: `errorAnswers(400, 401, 403, 404)`. */
export function errorAnswers<const S extends number>(
  ...statuses: S[]
): Record<S, typeof ErrorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema])) as Record<
    S,
    typeof ErrorBodySchema
  >;
}

/** The answers every guarded route may give besides its own: not signed in, not allowed, too many requests. */
export const guardedErrors = errorAnswers(401, 403, 429);

export const IdParamsSchema = z.object({ id: z.uuid('Not a valid id') });

export const TableActionSchema = z.object({ id: z.number().int(), name: z.string() });

/**
 * The table protocol's answer with rows of `row`. A caller that asks for some `columns` gets only
 * those (plus id, status, statusName and actions), so every other field of a row may be absent.
 */
export const tableAnswerOf = <Shape extends z.ZodRawShape>(row: z.ZodObject<Shape>) =>
  z.object({
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
    data: z.array(row.partial()),
    actions: z.array(TableActionSchema),
  });

/** A page of the table protocol with rows of `Row`, as both the server writes it and the client reads it. */
export type TableAnswer<Row> = {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  data: Row[];
  actions: z.infer<typeof TableActionSchema>[];
};

/** A plain confirmation: `{message}` (and the id it concerns, when there is one). */
export const MessageAnswerSchema = z.object({ id: z.string().optional(), message: z.string() });
export type MessageAnswer = z.infer<typeof MessageAnswerSchema>;

/**
 * A body documented by `schema` but checked inside the handler with `parseWith` (a schema built per
 * request, such as one that depends on the current time, or one whose 400s must keep naming `data`
 * for a missing body): Fastify only requires an object, `/api/docs` shows `schema`'s input shape.
 */
export const checkedInside = (schema: z.ZodType) => {
  const { $schema: _, ...documented } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'openapi-3.0',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return z.looseObject({}).meta(documented);
};

/**
 * A booking's trust flags (docs/api.md "Trust flags"): `ready` with no reasons, `flagged` with the
 * reasons, or `protected` once the dock released the pickup on the driver's release code. Each
 * reason's `code` is stable (the client translates by it); `text` is its English sentence.
 */
export const TrustSchema = z
  .object({
    state: z.enum(['ready', 'flagged', 'protected']),
    reasons: z.array(
      z.object({
        code: z.enum([
          'authority_inactive',
          'insurance_expired',
          'overbooked',
          'driver_not_of_carrier',
          'contact_changed_recently',
          'no_tractor_number',
          'pickup_held',
        ]),
        text: z.string(),
      }),
    ),
  })
  .meta({ id: 'Trust' });
