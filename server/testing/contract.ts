/**
 * The contract check: every JSON answer of the app under test is validated against the app's own
 * published OpenAPI document (`/api/docs/json`), so that the document and the server cannot drift.
 *
 * startTestApp installs it on each app it builds (unless CONTRACT_CHECK=off): an `onSend` hook,
 * added as Fastify creates the instance (its `fastify.initialization` diagnostics channel) so that it
 * runs for every route, validates each JSON answer whose route declares a schema for its status
 * with Ajv (strict: unknown keywords, formats and types refuse to compile). A mismatch is recorded
 * with its route, status, path in the answer and Ajv's message; closing the app throws them, and a
 * process that never closed its app exits with a failure. At exit the process prints how many
 * answers were validated and how many had no schema (CONTRACT_LIST=1 also lists those routes).
 * Test-only: production never builds an app through startTestApp.
 */
import { channel } from 'node:diagnostics_channel';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

export type ContractBreach = {
  /** `GET /api/services/eld 200` */
  answer: string;
  /** Ajv's errors, each as `<path in the answer>: <message>`. */
  errors: string[];
};

export type ContractCheck = {
  /** The mismatches recorded since the last take. */
  take(): ContractBreach[];
  /** Throws the mismatches not taken yet. */
  assertClean(): void;
};

type Schema = Record<string, unknown>;
type OpenapiDocument = {
  paths?: Record<string, Record<string, { responses?: Record<string, Answer> }>>;
  components?: { schemas?: Record<string, unknown> };
};
type Answer = { content?: Record<string, { schema?: unknown }> };
type Swagger = { swagger(): unknown };

const tally = { validated: 0, unschemed: 0, without: new Map<string, number>() };
const unreported: ContractBreach[] = [];

/** This process's answers so far: validated against the document, and JSON ones it gives no schema. */
export const contractCounts = () => ({ validated: tally.validated, unschemed: tally.unschemed });
let exitReport = false;

function reportAtExit() {
  if (exitReport) return;
  exitReport = true;
  process.once('exit', () => {
    // A TAP comment: the runner shows it beside the file's results.
    process.stdout.write(
      `# contract: ${tally.validated} answers validated against /api/docs/json, ${tally.unschemed} answers had no schema\n`,
    );
    if (process.env.CONTRACT_LIST === '1')
      for (const [answer, count] of [...tally.without].sort())
        process.stdout.write(`# contract: no schema for ${answer} (${count})\n`);
    if (unreported.length) {
      process.stderr.write(`${describe(unreported)}\n`);
      process.exitCode = 1;
    }
  });
}

const describe = (breaches: ContractBreach[]) =>
  [
    `${breaches.length} answer(s) do not match the published OpenAPI document (/api/docs/json):`,
    ...breaches.map(({ answer, errors }) => `  ${answer}: ${errors.join('; ')}`),
  ].join('\n');

const isRecord = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * An OpenAPI 3.0 schema as Ajv (JSON Schema draft-07) reads it: a boolean `exclusiveMinimum` becomes
 * the number beside it, a component reference points into the `openapi` schema that holds them all.
 * Ajv reads `nullable` itself.
 */
function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (!isRecord(node)) return node;
  const schema: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string')
      schema.$ref = value.replace('#/components/schemas/', 'openapi#/definitions/');
    else schema[key] = forAjv(value);
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive] === true) schema[exclusive] = schema[bound];
    else delete schema[exclusive];
    if (schema[exclusive] !== undefined) delete schema[bound];
  }
  return schema;
}

const fastifyUrl = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

type Validators = {
  /** The schema of an answer, by `METHOD url status` (the url as Fastify's route pattern). */
  schemaOf(method: string, url: string, status: number): Schema | undefined;
  compiled(key: string, schema: Schema): ValidateFunction;
};

/** One compiled set per document (apps built alike publish the same one). */
const validatorsByDocument = new Map<string, Validators>();

function validatorsFor(document: OpenapiDocument): Validators {
  const text = JSON.stringify(document);
  const known = validatorsByDocument.get(text);
  if (known) return known;
  const ajv = new Ajv({ strict: true, allErrors: true });
  formats.default(ajv);
  // OpenAPI's annotations beside JSON Schema's.
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
  ajv.addSchema({ $id: 'openapi', definitions: forAjv(document.components?.schemas ?? {}) });
  const operations = new Map<string, Record<string, Answer>>();
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, operation] of Object.entries(item))
      if (isRecord(operation) && operation.responses)
        operations.set(`${method.toUpperCase()} ${fastifyUrl(path)}`, operation.responses);
  const compiled = new Map<string, ValidateFunction>();
  const validators: Validators = {
    schemaOf(method, url, status) {
      const responses = operations.get(`${method} ${url}`);
      const answer =
        responses?.[String(status)] ?? responses?.[`${String(status)[0]}XX`] ?? responses?.default;
      const schema = answer?.content?.['application/json']?.schema;
      return isRecord(schema) ? schema : undefined;
    },
    compiled(key, schema) {
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(forAjv(schema) as Schema);
        compiled.set(key, validate);
      }
      return validate;
    },
  };
  validatorsByDocument.set(text, validators);
  return validators;
}

const errorText = (error: ErrorObject) =>
  `${error.instancePath || '/'}: ${error.message}${
    error.keyword === 'enum'
      ? ` (${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)})`
      : error.keyword === 'additionalProperties'
        ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
        : ''
  }`;

const isJson = (contentType: unknown) =>
  typeof contentType === 'string' && /^application\/([\w.-]+\+)?json\b/.test(contentType);

/**
 * `build` (the app, `buildApp(platform)`) with the check's hook on the Fastify instance it creates
 * synchronously; no check when CONTRACT_CHECK=off. Call `contract.assertClean()` when the app closes.
 */
export async function withContractCheck<T extends object>(
  build: () => Promise<T>,
): Promise<{ app: T; contract: ContractCheck | null }> {
  if (process.env.CONTRACT_CHECK === 'off') return { app: await build(), contract: null };
  reportAtExit();
  const breaches: ContractBreach[] = [];
  let validators: Validators | null = null;
  let created: FastifyInstance | null = null;
  const initialization = channel('fastify.initialization');
  const attach = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    if (created) return;
    created = fastify;
    fastify.addHook('onSend', async (request, reply, payload) => {
      if (request.method === 'HEAD') return payload;
      if (!isJson(reply.getHeader('content-type'))) return payload;
      const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
      if (typeof text !== 'string' || text === '') return payload;
      const url = request.routeOptions.url;
      // An answer of no route (a 404, a rate limit before routing) is named by that alone.
      const answer = `${request.method} ${url ?? '(no route)'} ${reply.statusCode}`;
      try {
        // The document /api/docs/json serves, read once the app is ready, without a request of its own.
        validators ??= validatorsFor(
          JSON.parse(JSON.stringify((fastify as unknown as Swagger).swagger())),
        );
      } catch (error) {
        record({ answer, errors: [`cannot read the document: ${(error as Error).message}`] });
        return payload;
      }
      const schema = url ? validators.schemaOf(request.method, url, reply.statusCode) : undefined;
      if (!schema) {
        tally.unschemed += 1;
        tally.without.set(answer, (tally.without.get(answer) ?? 0) + 1);
        return payload;
      }
      tally.validated += 1;
      try {
        const validate = validators.compiled(
          `${request.method} ${url} ${reply.statusCode}`,
          schema,
        );
        if (!validate(JSON.parse(text)))
          record({ answer, errors: (validate.errors ?? []).map(errorText) });
      } catch (error) {
        record({ answer, errors: [`cannot check: ${(error as Error).message}`] });
      }
      return payload;
    });
  };
  const record = (breach: ContractBreach) => {
    breaches.push(breach);
    unreported.push(breach);
  };
  const forget = (taken: ContractBreach[]) => {
    for (const breach of taken) unreported.splice(unreported.indexOf(breach), 1);
  };
  initialization.subscribe(attach);
  let building: Promise<T>;
  try {
    building = build();
  } finally {
    initialization.unsubscribe(attach);
  }
  const app = await building;
  if ((created as object | null) !== app)
    throw new Error('The contract check did not attach: the app was not created synchronously');
  const contract: ContractCheck = {
    take() {
      const taken = breaches.splice(0);
      forget(taken);
      return taken;
    },
    assertClean() {
      const taken = contract.take();
      if (taken.length) throw new Error(describe(taken));
    },
  };
  return { app, contract };
}
