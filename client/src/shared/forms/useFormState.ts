import { useState } from 'react';
import type { z } from 'zod';
import { ApiError } from '../../api/http.ts';
import { useMessageText } from '../../components/messages.ts';

export type FieldErrors = Record<string, string>;

/** The first message per field path ('trucks.0.count'), as zod reports them. */
export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * Form values, their errors in the user's language, checked with a shared domain schema; the
 * server's field errors land under their fields, and what was typed is kept.
 */
export function useFormState<Values extends Record<string, unknown>>(initial: Values) {
  const messageText = useMessageText();
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A field's message goes as soon as it is edited again.
    setErrors((current) => {
      if (!current[field as string]) return current;
      const next = { ...current };
      delete next[field as string];
      return next;
    });
  };

  /** The parsed values, or null with the messages shown. */
  const validate = <S extends z.ZodType>(schema: S, input: unknown = values): z.infer<S> | null => {
    const result = schema.safeParse(input);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    const found = fieldErrorsOf(result.error.issues);
    setErrors(
      Object.fromEntries(
        Object.entries(found).map(([key, message]) => [key, messageText(message)]),
      ),
    );
    return null;
  };

  /** Puts a refused request's field errors under their fields; true when there were any. */
  const showServerErrors = (error: unknown): boolean => {
    if (!(error instanceof ApiError) || error.errors.length === 0) return false;
    const found: FieldErrors = {};
    for (const item of error.errors) if (item.path) found[item.path] ??= messageText(item.message);
    setErrors(found);
    return Object.keys(found).length > 0;
  };

  return { values, setValues, set, errors, setErrors, validate, showServerErrors };
}
