import t from 'tap';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApp } from '../testing/testApp.ts';

// The published contract, as integrators read it: lint-clean with Redocly's recommended rules, and
// every operation documents its success answer with a schema.
const { app, close } = await startTestApp();
t.teardown(close);

type Operation = {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
const methods = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
const document = response.json() as {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => methods.includes(method))
    .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

t.test('GET /api/docs/json publishes every operation', async (t) => {
  t.equal(response.statusCode, 200);
  t.ok(operations.length >= 70, `${operations.length} operations`);
  t.ok(document.components?.schemas?.Error, 'the error answer is a shared component');
});

t.test("the document passes Redocly's recommended rules with no error", async (t) => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  const errors = problems.filter((problem) => problem.severity === 'error');
  const warnings = problems.filter((problem) => problem.severity === 'warn');
  t.comment(`Redocly recommended: ${errors.length} errors, ${warnings.length} warnings`);
  const summary = (list: typeof problems) =>
    list.map(
      (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
  t.same(summary(errors), [], 'no lint error');
});

t.test('every operation documents its success answer with a schema (204 aside)', async (t) => {
  const lacking = operations
    .filter(({ operation }) => {
      // 101: a WebSocket's success is its upgrade (the event feed), documented with its messages' shape.
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) =>
        /^(2\d\d|101)$/.test(status),
      );
      if (successes.length === 0) return true;
      return successes.some(
        ([status, answer]) =>
          status !== '204' &&
          !Object.values(answer.content ?? {}).some((media) => media.schema !== undefined),
      );
    })
    .map(({ key }) => key);
  t.same(lacking, [], 'operations without a documented success answer');
});

t.test('each operation has a unique operationId, a tag and its security', async (t) => {
  const ids = operations.map(({ operation }) => operation.operationId);
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  const login = operations.find(({ key }) => key === 'POST /api/login')?.operation as
    | { security?: unknown[] }
    | undefined;
  t.same(login?.security, [], 'a public call needs no token');
  const loads = operations.find(({ key }) => key === 'GET /api/loads/shipper')?.operation as
    | { operationId?: string; security?: unknown[]; tags?: string[] }
    | undefined;
  t.same(loads?.security, [{ bearer: [] }], 'a guarded call needs the bearer token');
  t.same(loads?.tags, ['loads']);
  t.equal(loads?.operationId, 'getLoadsShipper');
  const tags = new Set((document as { tags?: { name: string }[] }).tags?.map((tag) => tag.name));
  t.same(
    operations
      .flatMap(({ operation }) => (operation as { tags?: string[] }).tags ?? [])
      .filter((tag) => !tags.has(tag)),
    [],
    'every tag is declared',
  );
});

type Schema = Record<string, unknown>;

t.test('every schema speaks OpenAPI 3.0, as a strict validator reads it', async (t) => {
  const problems: string[] = [];
  const isRecord = (value: unknown): value is Schema =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${at}/${index}`);
      return;
    }
    if (!isRecord(node)) return;
    // Keyword values are never objects where these are keywords, a property's schema always is.
    if (node.nullable === true && Array.isArray(node.enum) && !node.enum.includes(null))
      problems.push(`${at}: a nullable enum without null`);
    if (node.nullable === true && node.type === undefined)
      problems.push(`${at}: nullable without a type`);
    if (node.type === 'null' || Array.isArray(node.type))
      problems.push(`${at}: a JSON Schema type`);
    for (const key of ['const', '$schema', '$id', 'examples'])
      if (key in node && !isRecord(node[key])) problems.push(`${at}: ${key}`);
    for (const key of ['exclusiveMinimum', 'exclusiveMaximum'])
      if (typeof node[key] === 'number') problems.push(`${at}: a numeric ${key}`);
    for (const [key, value] of Object.entries(node)) visit(value, `${at}/${key}`);
  };
  visit(document, '#');
  t.same(problems, []);
  // The ELD catalogue's `status`, null until the service is installed.
  const catalogue = document.paths['/api/organization-services'].get as unknown as {
    responses: Record<
      string,
      { content: Record<string, { schema: { items: { properties: Schema } } }> }
    >;
  };
  const eld = catalogue.responses['200'].content['application/json'].schema.items.properties;
  t.same(
    eld.status,
    { type: 'string', nullable: true, enum: ['Installed', null] },
    'the ELD status',
  );
});
