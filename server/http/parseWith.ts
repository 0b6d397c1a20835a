import type { z } from 'zod';
import { ValidationError } from '../../domain/shared/errors.ts';
import { requireStorableText } from './storableText.ts';

/**
 * Parses a value (a multipart `data` field) with a zod schema; a failure is a 400 naming every field
 * with the schema's (the specification's) message, like the route schemas' own validation.
 */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  requireStorableText(value, 'data');
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || 'data',
    message: issue.message,
  }));
  throw new ValidationError(errors[0]?.message ?? 'Invalid data', errors);
}
