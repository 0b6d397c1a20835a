/**
 * The published document as OpenAPI 3.0 reads it: zod's `openapi-3.0` target leaves a few JSON
 * Schema forms (nullable enums, `const`, numeric exclusive bounds, the `null` type...) that 3.0
 * lacks or reads otherwise; `eachSchema` visits every schema position and `asOpenapi30` rewrites one.
 */

type Schema = Record<string, unknown>;

const isRecord = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const mapValues = (record: unknown, map: (value: unknown) => unknown): unknown =>
  isRecord(record)
    ? Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]))
    : record;

const operationMethods = new Set([
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
]);

/**
 * The document with `fix` applied to each of its schemas, innermost first: the components', and the
 * parameters', bodies' and answers' of every operation. Only schema positions are visited, so that
 * a property named `type`, `const` or `enum` stays a property.
 */
export function eachSchema<T>(document: T, fix: (schema: Schema) => Schema): T {
  const schema = (node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const visited: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' || key === 'definitions' || key === '$defs')
        visited[key] = mapValues(value, schema);
      else if (['items', 'additionalProperties', 'not'].includes(key) && isRecord(value))
        visited[key] = schema(value);
      else if (['items', 'allOf', 'anyOf', 'oneOf'].includes(key) && Array.isArray(value))
        visited[key] = value.map(schema);
      else visited[key] = value;
    }
    return fix(visited);
  };
  const content = (media: unknown) =>
    mapValues(media, (type) =>
      isRecord(type) && type.schema !== undefined ? { ...type, schema: schema(type.schema) } : type,
    );
  const parameter = (node: unknown) =>
    isRecord(node)
      ? {
          ...node,
          ...(node.schema === undefined ? {} : { schema: schema(node.schema) }),
          ...(node.content === undefined ? {} : { content: content(node.content) }),
        }
      : node;
  const answer = (node: unknown) =>
    isRecord(node)
      ? {
          ...node,
          ...(node.content === undefined ? {} : { content: content(node.content) }),
          ...(node.headers === undefined ? {} : { headers: mapValues(node.headers, parameter) }),
        }
      : node;
  const operation = (node: unknown) =>
    isRecord(node)
      ? {
          ...node,
          ...(Array.isArray(node.parameters) ? { parameters: node.parameters.map(parameter) } : {}),
          ...(isRecord(node.requestBody) ? { requestBody: answer(node.requestBody) } : {}),
          ...(node.responses === undefined ? {} : { responses: mapValues(node.responses, answer) }),
        }
      : node;
  const root = document as Schema;
  const paths = Object.fromEntries(
    Object.entries(isRecord(root.paths) ? root.paths : {}).map(([path, item]) => [
      path,
      isRecord(item)
        ? Object.fromEntries(
            Object.entries(item).map(([key, value]) => [
              key,
              key === 'parameters' && Array.isArray(value)
                ? value.map(parameter)
                : operationMethods.has(key)
                  ? operation(value)
                  : value,
            ]),
          )
        : item,
    ]),
  );
  const components = isRecord(root.components) ? root.components : undefined;
  return {
    ...root,
    ...(root.paths === undefined ? {} : { paths }),
    ...(components
      ? {
          components: {
            ...components,
            ...(components.schemas === undefined
              ? {}
              : { schemas: mapValues(components.schemas, schema) }),
          },
        }
      : {}),
  } as T;
}

/** OpenAPI 3.0's null alone: the alternative a nullable reference gets. */
const nullOnly = { type: 'object', nullable: true, enum: [null] };

/** A schema that accepts null and nothing else (zod's `z.null()`, or JSON Schema's `{type: 'null'}`). */
const isNullOnly = (schema: Schema) =>
  schema.type === 'null' ||
  (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null);

/** The one JSON type every value of an enum has, if they share one. */
function typeOfValues(values: unknown[]): string | undefined {
  const types = new Set(
    values
      .filter((value) => value !== null)
      .map((value) =>
        Array.isArray(value)
          ? 'array'
          : Number.isInteger(value)
            ? 'integer'
            : typeof value === 'number'
              ? 'number'
              : typeof value,
      ),
  );
  if (types.has('integer') && types.has('number')) types.delete('integer');
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * One schema as OpenAPI 3.0 reads it (its subschemas already are). zod's `openapi-3.0` target leaves
 * a few JSON Schema forms that 3.0 lacks or reads otherwise, and a strict validator refuses:
 * - a nullable `enum` (a nullable `z.literal` or `z.enum`) without `null` among its values: 3.0's
 *   `nullable` does not widen an `enum`, so the `null` the server answers must be listed;
 * - `const` (3.0 has `enum` of one value), `examples` (3.0 has one `example`), a numeric
 *   `exclusiveMinimum`/`exclusiveMaximum` (3.0's are booleans beside `minimum`/`maximum`), the
 *   `null` type (3.0 has `nullable`), and JSON Schema's identity keys (`$schema`, `$id`);
 * - a nullable union or reference, `{nullable: true, anyOf|allOf: [...]}` with no `type`, or a union
 *   with a null alternative: 3.0 leaves `nullable` without a sibling `type` undefined, so the
 *   nullability moves into the alternatives — each typed one becomes nullable, a reference gets a
 *   null alternative.
 */
export function asOpenapi30(input: Schema): Schema {
  const { $schema: _schema, $id: _id, ...schema } = input;
  // `{allOf: [X]}` and nothing beside it is X.
  if (Object.keys(schema).length === 1 && Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return schema.allOf[0] as Schema;
  if ('const' in schema) {
    const { const: value, ...rest } = schema;
    return asOpenapi30({ ...rest, enum: [value] });
  }
  if (Array.isArray(schema.examples)) {
    const { examples, ...rest } = schema;
    return asOpenapi30({ ...rest, ...(examples.length ? { example: examples[0] } : {}) });
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const)
    if (typeof schema[exclusive] === 'number') {
      schema[bound] = schema[exclusive];
      schema[exclusive] = true;
    }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    const nullable = types.length < schema.type.length;
    if (types.length === 1)
      return asOpenapi30({
        ...schema,
        type: types[0],
        ...(nullable ? { nullable: true } : {}),
      });
    const { type: _type, ...rest } = schema;
    return asOpenapi30({
      ...rest,
      anyOf: [...types.map((type) => ({ type })), ...(nullable ? [nullOnly] : [])],
    });
  }
  if (schema.type === 'null') return { ...schema, ...nullOnly };

  // A union with a null alternative: the others become nullable.
  const unionKey = Array.isArray(schema.anyOf)
    ? 'anyOf'
    : Array.isArray(schema.oneOf)
      ? 'oneOf'
      : null;
  if (unionKey) {
    const members = schema[unionKey] as Schema[];
    const others = members.filter((member) => !isNullOnly(member));
    if (others.length > 0 && others.length < members.length) {
      const { [unionKey]: _members, ...rest } = schema;
      return asOpenapi30(
        others.length === 1 && others[0].type !== undefined
          ? { ...rest, ...others[0], nullable: true }
          : { ...rest, [unionKey]: others, nullable: true },
      );
    }
  }

  if (schema.nullable !== true) return schema;
  const alternatives = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Schema[] | undefined;
  if (schema.type === undefined && alternatives) {
    const { nullable: _, anyOf: _any, oneOf: _one, allOf: _all, ...rest } = schema;
    if (schema.allOf && alternatives.length > 1)
      return { ...rest, allOf: alternatives, nullable: true, type: 'object' };
    const members = alternatives.map((member) =>
      member.type !== undefined ? asOpenapi30({ ...member, nullable: true }) : member,
    );
    if (members.some((member) => member.type === undefined)) members.push(nullOnly);
    return { ...rest, [schema.oneOf ? 'oneOf' : 'anyOf']: members };
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[];
    const type = schema.type ?? typeOfValues(values);
    return {
      ...schema,
      ...(type === undefined ? {} : { type }),
      enum: values.includes(null) ? values : [...values, null],
    };
  }
  // `nullable` with no `type` beside it means nothing in 3.0 (and `{}` accepts null already).
  if (schema.type === undefined) {
    const { nullable: _, ...rest } = schema;
    return rest;
  }
  return schema;
}
