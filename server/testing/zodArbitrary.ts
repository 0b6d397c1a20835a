/**
 * fast-check inputs derived from zod 4 schemas, for the fuzz suite (test/security/fuzzSuite.ts).
 * zod-fast-check covers zod 3 and fast-check 3 only; this reads zod 4's own schema definitions
 * (`schema._zod.def`): strings with their lengths and formats, numbers with their bounds, literals,
 * enums, objects, arrays, unions, optionals and pipes. What it cannot follow (refinements, transforms
 * of free input) it answers with any JSON value: the hostile values below cover those anyway.
 */
import fc from 'fast-check';

type Def = { type: string; [key: string]: unknown };
type Check = { _zod: { def: { check: string; [key: string]: unknown } } };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Check['_zod']['def'][] =>
  ((def.checks as Check[] | undefined) ?? []).map((check) => check._zod.def);

/** Values that have broken servers: out of range, of the wrong type, too long, SQL-ish, prototype keys. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1.5,
    -0.0001,
    2147483648,
    -2147483649,
    // biome-ignore lint/correctness/noPrecisionLoss: a number past 2^53 on purpose, as a client may send it
    9007199254740993,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER,
    '1.5',
    '2147483648',
    '1e308',
    '-1',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '0b11',
    ' 12 ',
    '',
    ' ',
    'null',
    'undefined',
    'true',
    true,
    false,
    null,
    [],
    {},
    [2500],
    [[[]]],
    { $gt: '' },
    { __proto__: { admin: true } },
    '0000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '-271821-04-20T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '1969-12-31T23:59:59Z',
    '2026-02-30T10:00:00Z',
    '2026-13-01',
    '12/31/9999 11:59 PM',
    '00/00/0000 00:00 AM',
    "' OR 1=1 --",
    "'; DROP TABLE events; --",
    '\\',
    '%',
    '_',
    '%_%',
    '\u0000',
    '\ud800',
    '😀'.repeat(50),
    '<script>alert(1)</script>',
    '=HYPERLINK("http://x")',
    '../../etc/passwd',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'constructor',
    '__proto__',
    'prototype',
    'toString',
    'hasOwnProperty',
  ),
  fc.constantFrom(1_000, 10_000, 600_000).map((length) => 'x'.repeat(length)),
  fc.double(),
  fc.integer({ min: -2_147_483_648 * 4, max: 2_147_483_647 * 4 }),
  fc.string({ maxLength: 40 }),
);

/** Any JSON-ish value, nested a little; prototype keys included. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'status', 'value', 'x'),
      hostileScalar,
      { maxKeys: 3 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Array.from({ length: 600 }, (_, index) => index),
      Array.from({ length: 600 }, () => ({ id: 1 })),
    ),
  },
);

const stringOf = (def: Def): fc.Arbitrary<string> => {
  const formatOf = (format: unknown, pattern: unknown): fc.Arbitrary<string> | null => {
    switch (format) {
      case 'email':
        return fc.emailAddress();
      case 'uuid':
      case 'guid':
        return fc.uuid();
      case 'datetime':
        return fc
          .date({ min: new Date('1960-01-01'), max: new Date('2110-01-01'), noInvalidDate: true })
          .map((date) => date.toISOString());
      case 'date':
        return fc
          .date({ min: new Date('1960-01-01'), max: new Date('2110-01-01'), noInvalidDate: true })
          .map((date) => date.toISOString().slice(0, 10));
      case 'url':
        return fc.webUrl();
      case 'regex':
        return pattern instanceof RegExp ? fc.stringMatching(pattern) : null;
      default:
        return null;
    }
  };
  const own = formatOf(def.format, def.pattern);
  if (own) return own;
  let minLength = 0;
  let maxLength = 60;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') minLength = check.minimum as number;
    else if (check.check === 'max_length')
      maxLength = Math.min(check.maximum as number, Math.max(minLength, 200));
    else if (check.check === 'length_equals') minLength = maxLength = check.length as number;
    else if (check.check === 'string_format') {
      const format = formatOf(check.format, check.pattern);
      if (format) return format;
    }
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
};

const numberOf = (def: Def): fc.Arbitrary<number> => {
  let min = -1e6;
  let max = 1e6;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'greater_than') min = (check.value as number) + (check.inclusive ? 0 : 1);
    else if (check.check === 'less_than') max = (check.value as number) - (check.inclusive ? 0 : 1);
    else if (check.check === 'number_format') integer = true;
  }
  if (max < min) max = min;
  const whole = fc.integer({
    min: Math.ceil(Math.max(min, -(2 ** 31))),
    max: Math.floor(Math.min(max, 2 ** 31 - 1)),
  });
  return integer
    ? whole
    : fc.oneof(whole, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
};

/**
 * A valid-looking value of `schema`: what the form would send, within the bounds the schema states.
 * `json` (for querystrings) marks a string piped through JSON.parse into an object: it is generated
 * as that object, serialised.
 */
export function arbitraryOf(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  const def = defOf(schema);
  const next = (inner: unknown) => arbitraryOf(inner, depth + 1);
  switch (def.type) {
    case 'string':
      return stringOf(def);
    case 'number':
      return numberOf(def);
    case 'bigint':
      return fc.bigInt().map(String);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'date':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
      return fc.option(next(def.innerType), { nil: undefined });
    case 'nullable':
      return fc.option(next(def.innerType), { nil: null });
    case 'default':
    case 'prefault':
      return fc.option(next(def.innerType), { nil: undefined });
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return next(def.innerType);
    case 'lazy':
      return next((def.getter as () => unknown)());
    case 'array': {
      let minLength = 0;
      let maxLength = 4;
      for (const check of checksOf(def)) {
        if (check.check === 'min_length') minLength = check.minimum as number;
        if (check.check === 'max_length')
          maxLength = Math.min(check.maximum as number, minLength + 4);
      }
      return fc.array(next(def.element), { minLength, maxLength: Math.max(minLength, maxLength) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map(next));
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return fc
        .record(
          Object.fromEntries(Object.entries(shape).map(([key, inner]) => [key, next(inner)])),
          { requiredKeys: [] },
        )
        .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), next(def.valueType), { maxKeys: 3 });
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(next));
    case 'intersection':
      return next(def.left);
    case 'pipe': {
      const input = defOf(def.in);
      // z.string().transform(JSON.parse).pipe(X): the text of an X.
      if (
        input.type === 'pipe' &&
        defOf(input.in).type === 'string' &&
        defOf(input.out).type === 'transform'
      ) {
        return next(def.out).map((value) => JSON.stringify(value));
      }
      // z.preprocess(f, X), X.transform(f): what X takes.
      if (input.type === 'transform') return next(def.out);
      return next(def.in);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Every path to a leaf of a JSON value: where a mutation may put a hostile value. */
const pathsOf = (
  value: unknown,
  prefix: (string | number)[] = [],
  depth = 0,
): (string | number)[][] => {
  if (depth > 6 || value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value)
    ? value.map((inner, index) => [index, inner] as const)
    : Object.entries(value);
  return [
    prefix,
    ...entries.flatMap(([key, inner]) => pathsOf(inner, [...prefix, key], depth + 1)),
  ];
};

const replaced = (value: unknown, path: (string | number)[], replacement: unknown): unknown => {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value))
    return value.map((inner, index) =>
      index === head ? replaced(inner, rest, replacement) : inner,
    );
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    Object.defineProperty(copy, head as string, {
      value: replaced(copy[head as string], rest, replacement),
      enumerable: true,
      configurable: true,
      writable: true,
    });
    return copy;
  }
  return value;
};

/** `valid` with one to three of its leaves (or the whole) replaced by hostile values, or a key added. */
export const mutated = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      valid,
      fc.array(fc.tuple(fc.nat(), hostileValue), { minLength: 1, maxLength: 3 }),
      fc.option(
        fc.tuple(
          fc.constantFrom(
            '__proto__',
            'constructor',
            'extra',
            'organizationId',
            'roleId',
            'status',
          ),
          hostileValue,
        ),
      ),
    )
    .map(([value, changes, added]) => {
      let result = value;
      for (const [pick, replacement] of changes) {
        const paths = pathsOf(result);
        result = replaced(result, paths[pick % paths.length], replacement);
      }
      if (added && result && typeof result === 'object' && !Array.isArray(result)) {
        result = { ...(result as object) };
        Object.defineProperty(result, added[0], {
          value: added[1],
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      return result;
    });

/** Valid-looking, mutated, or altogether hostile: the three kinds of input each route gets. */
export const inputOf = (
  schema: unknown | null,
  seeds: readonly unknown[] = [],
): fc.Arbitrary<unknown> => {
  const valid = fc.oneof(
    ...(schema ? [arbitraryOf(schema)] : []),
    ...(seeds.length ? [fc.constantFrom(...seeds)] : []),
    ...(schema || seeds.length ? [] : [fc.constant({})]),
  );
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 5, arbitrary: mutated(valid) },
    { weight: 1, arbitrary: hostileValue },
  );
};
