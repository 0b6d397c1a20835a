import t from 'tap';
import { z } from 'zod';
import { startTestApp } from './testing/testApp.ts';
import { ValidationError } from '../domain/shared/errors.ts';

// Routes that exist only here, to see the error handler at work.
const { app, close } = await startTestApp({}, (app) =>
  app.register(async (scope) => {
    scope.post(
      '/api/test/echo',
      {
        schema: {
          body: z.object({
            weight: z.number({ error: 'Please enter weight' }).positive('Please enter weight'),
          }),
        },
      },
      async (request) => request.body,
    );
    scope.get('/api/test/domain', async () => {
      throw ValidationError.field('commodity', 'Please enter commodity');
    });
    scope.get('/api/test/crash', async () => {
      throw new Error('secret database password in a stack');
    });
  }),
);
t.teardown(close);

t.test('GET /api/health reports the event store and each read model', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/api/health' });
  t.equal(response.statusCode, 200);
  const body = response.json();
  t.equal(body.status, 'ok');
  t.equal(body.eventStore.status, 'ok');
  t.ok(['pglite', 'postgres'].includes(body.eventStore.kind));
  t.ok(Array.isArray(body.readModels));
  for (const model of body.readModels) t.equal(model.lag, 0, `${model.projection} caught up`);
});

t.test('GET /api/catalog lists every enumeration', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/api/catalog' });
  t.equal(response.statusCode, 200);
  const body = response.json();
  t.equal(body.trailerTypes.length, 51);
  t.same(body.trailerTypes.find((trailer: { id: number }) => trailer.id === 24).name, 'Conestoga');
  t.same(
    body.truckTypes.map((truck: { name: string }) => truck.name),
    ['Cargo Van', 'Small Straight', 'Large Straight', 'Tractor', 'Flatbed'],
  );
  t.equal(body.timeZones.length, 6);
  t.match(
    body.timeZones.find((zone: { id: string }) => zone.id === 'America/Phoenix'),
    { shortName: 'MST', offset: '-07:00' },
  );
  t.equal(body.tourStatuses.find((status: { id: number }) => status.id === 5).name, 'Canceled');
  t.ok(body.permissions.length >= 50);
});

t.test('errors have one shape, name the field, and never leak a 5xx message', async (t) => {
  const invalid = await app.inject({
    method: 'POST',
    url: '/api/test/echo',
    payload: { weight: 'heavy' },
  });
  t.equal(invalid.statusCode, 400);
  t.match(invalid.json(), {
    statusCode: 400,
    error: 'Bad Request',
    message: 'Please enter weight',
    errors: [{ path: 'weight', message: 'Please enter weight' }],
  });

  const domain = await app.inject({ method: 'GET', url: '/api/test/domain' });
  t.same(domain.json(), {
    statusCode: 400,
    error: 'Bad Request',
    message: 'Please enter commodity',
    code: 'commodity_required',
    errors: [{ path: 'commodity', message: 'Please enter commodity', code: 'commodity_required' }],
  });

  const crash = await app.inject({ method: 'GET', url: '/api/test/crash' });
  t.equal(crash.statusCode, 500);
  t.same(crash.json(), {
    statusCode: 500,
    error: 'Internal Server Error',
    message: 'Something went wrong!',
    code: 'internal_error',
  });
  t.notMatch(crash.body, /secret/);

  const malformed = await app.inject({
    method: 'POST',
    url: '/api/test/echo',
    headers: { 'content-type': 'application/json' },
    payload: '{"weight": ',
  });
  t.equal(malformed.statusCode, 400);
  t.equal(malformed.json().statusCode, 400);

  const unknown = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error, 'Not Found');
});

t.test('security headers and same-origin CORS', async (t) => {
  const response = await app.inject({
    method: 'GET',
    url: '/api/health',
    headers: { origin: 'https://evil.example' },
  });
  // An API answer is never a page: nothing may load from it, nothing may frame it.
  t.equal(
    response.headers['content-security-policy'],
    "default-src 'none'; frame-ancestors 'none'",
  );
  t.equal(response.headers['x-frame-options'], 'DENY');
  t.equal(response.headers['x-content-type-options'], 'nosniff');
  t.equal(
    response.headers['x-xss-protection'],
    undefined,
    'no header only a legacy page would read',
  );
  const page = await app.inject({ method: 'GET', url: '/signin' });
  t.match(page.headers['content-security-policy'], /default-src 'self'/, "the pages' own policy");
  t.match(page.headers['content-security-policy'], /frame-ancestors 'none'/);
  t.equal(
    response.headers['access-control-allow-origin'],
    undefined,
    'no CORS grant to a foreign origin',
  );
});

t.test('the OpenAPI document is generated from the routes', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  t.equal(response.statusCode, 200);
  const document = response.json();
  t.equal(document.openapi.startsWith('3.'), true);
  t.ok(document.paths['/api/health'], 'health documented');
  t.ok(document.paths['/api/catalog'], 'catalog documented');
});
