import type { FastifySchema } from 'fastify';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * The published OpenAPI document (`/api/docs/json`): the document-level parts and, for each
 * operation, what its route leaves out — a stable operationId, a tag (its area) and its security
 * (the bearer token, none for a public route). Schemas come from the routes' zod schemas.
 */
export const openapiDocument = {
  info: {
    title: 'Freight marketplace API',
    version: '0.1.0',
    description:
      'Loads, offers, contracts, tours and the audit trail. Every error answer carries a stable `code` beside its English `message`.',
    license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
  },
  servers: [{ url: '/', description: 'This server' }],
  components: {
    securitySchemes: { bearer: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' } },
  },
};

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

/**
 * `GET /api/loads/:id/offers` → `getLoadsByIdOffers`: the method and the path's segments, each
 * parameter as `By<Name>`; stable as long as the route is.
 */
export function operationIdOf(method: string, url: string): string {
  const parts = url
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':')
        ? [`By${capitalized(segment.slice(1))}`]
        : words(segment).map(capitalized),
    );
  return method.toLowerCase() + (parts.join('') || 'Root');
}

/** The area an operation belongs to: the path's first segment after `/api` (`loads`, `tours`, ...). */
export function tagOf(url: string): string {
  return (
    url
      .replace(/^\/api\/?/, '')
      .split('/')
      .find((segment) => segment && !segment.startsWith(':')) ?? 'api'
  );
}

const methodOf = (method: string | string[]) => [method].flat()[0] ?? 'GET';

/** The zod transform, then the operation's id, tag and security where the route does not give them. */
export const openapiTransform: SwaggerTransform = (document) => {
  const { schema, url } = jsonSchemaTransform(
    document as Parameters<typeof jsonSchemaTransform>[0],
  );
  const route = document.route;
  const own = (schema ?? {}) as FastifySchema & {
    operationId?: string;
    tags?: string[];
    security?: unknown[];
    hide?: boolean;
  };
  if (own.hide) return { schema: own, url };
  const isPublic = (route.config as { public?: unknown } | undefined)?.public === true;
  return {
    url,
    schema: {
      ...own,
      operationId: own.operationId ?? operationIdOf(methodOf(route.method), url),
      tags: own.tags ?? [tagOf(url)],
      security: own.security ?? (isPublic ? [] : [{ bearer: [] }]),
    } as FastifySchema,
  };
};

/** The zod registry's components (schemas with `.meta({ id })`), and every tag the operations use, declared. */
export const openapiTransformObject: SwaggerTransformObject = (document) => {
  const object = jsonSchemaTransformObject(document) as {
    paths?: Record<string, Record<string, { tags?: string[] }>>;
    tags?: { name: string }[];
  };
  const used = new Set<string>();
  for (const operations of Object.values(object.paths ?? {})) {
    for (const operation of Object.values(operations))
      for (const tag of operation?.tags ?? []) used.add(tag);
  }
  const declared = new Map((object.tags ?? []).map((tag) => [tag.name, tag]));
  for (const name of [...used].sort())
    if (!declared.has(name))
      declared.set(name, { name, description: `The ${name} calls` } as { name: string });
  return withoutUnusedSchemas(
    eachSchema({ ...object, tags: [...declared.values()] }, asOpenapi30),
  ) as ReturnType<SwaggerTransformObject>;
};

/** The registry yields an input and an output twin of every named schema: only those the operations reach stay. */
function withoutUnusedSchemas<
  T extends { paths?: unknown; components?: { schemas?: Record<string, unknown> } },
>(document: T): T {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (
        key === '$ref' &&
        typeof value === 'string' &&
        value.startsWith('#/components/schemas/')
      ) {
        const name = value.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(document.paths);
  return {
    ...document,
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))),
    },
  };
}

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
function eachSchema<T>(document: T, fix: (schema: Schema) => Schema): T {
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
function asOpenapi30(input: Schema): Schema {
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
