/** The OpenAPI document: its document-level parts, operation ids, tags and security, and the used schemas. */
import type { FastifySchema } from 'fastify';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { asOpenapi30, eachSchema } from './openapi30.ts';

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
