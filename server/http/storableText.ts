/**
 * Text the database cannot keep: PostgreSQL's text and jsonb refuse the NUL character, and a lone
 * UTF-16 surrogate is not a character at all (JSON.parse lets both through from `\u0000` and
 * `\ud800`). Found at the door, such input is a 400 naming the field, never a failed append.
 */
import { errorMessages } from '../../domain/contracts/errorCodes.ts';
import { ValidationError } from '../../domain/shared/errors.ts';
import type { App } from './routeContext.ts';

export const TEXT_NOT_STORABLE = errorMessages.text_not_storable;

// A lone surrogate is what String.prototype.isWellFormed refuses; NUL is checked on its own.
const storable = (text: string) =>
  (text as string & { isWellFormed(): boolean }).isWellFormed() && !text.includes('\u0000');

/** The path of the first string (a key or a value) in `value` that cannot be stored, else null. */
export function unstorablePath(value: unknown): string | null {
  const found = firstUnstorable(value, 0);
  return found === null ? null : found.reverse().join('.');
}

/**
 * The path to the first unstorable string, innermost key first ([] for `value` itself): the path
 * is built only on the way out of a find, so a clean body (every request) allocates nothing.
 */
function firstUnstorable(value: unknown, depth: number): string[] | null {
  if (typeof value === 'string') return storable(value) ? null : [];
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = firstUnstorable(value[index], depth + 1);
      if (found !== null) {
        found.push(String(index));
        return found;
      }
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: shows the NUL PostgreSQL cannot store
    if (!storable(key)) return [key.replace(/\u0000/g, '\\u0000')];
    const found = firstUnstorable((value as Record<string, unknown>)[key], depth + 1);
    if (found !== null) {
      found.push(key);
      return found;
    }
  }
  return null;
}

/** Throws the 400 when `value` holds text that cannot be stored; `context` names the part (body, query, params, data). */
export function requireStorableText(value: unknown, context: string): void {
  const path = unstorablePath(value);
  if (path === null) return;
  throw new ValidationError(TEXT_NOT_STORABLE, [
    { path: path || context, message: TEXT_NOT_STORABLE },
  ]);
}

/** Every route: the path parameters, the query and a parsed JSON body are checked before their schemas run. */
export function registerStorableText(app: App): void {
  // A callback hook, not an async one: it does no I/O, and every request passes through it.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      requireStorableText(request.params, 'params');
      requireStorableText(request.query, 'query');
      if (!Buffer.isBuffer(request.body)) requireStorableText(request.body, 'body');
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
