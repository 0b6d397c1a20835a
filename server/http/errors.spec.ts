import t, { type Test } from 'tap';
import type { InjectOptions } from 'fastify';
import { z } from 'zod';
import { ErrorBodySchema } from '../../domain/contracts/common.ts';
import { errorMessages } from '../../domain/contracts/errorCodes.ts';
import {
  ConflictError,
  GoneError,
  IllegalStateError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import * as schemaMessages from '../../domain/schemas/messages.ts';
import { readMultipart } from '../integrations/files/uploads.ts';
import { startTestApp } from '../testing/testApp.ts';
import { ORGANIZATION_BLOCKED, ORGANIZATION_NOT_ACTIVE } from './auth.ts';
import { EMAIL_NOT_CONFIRMED } from '../routes/auth.routes.ts';
import {
  OLD_PASSWORD_REQUIRED_MESSAGE,
  OLD_PASSWORD_WRONG_MESSAGE,
} from '../commands/userDetails.ts';
import {
  ALREADY_INSTALLED_MESSAGE,
  SERVICE_NOT_FOUND_MESSAGE,
} from '../../domain/services/organizationService.decide.ts';
import { SEARCH_LIMIT_MESSAGE } from '../../domain/searches/savedSearch.messages.ts';
import {
  EMAIL_ALREADY_REGISTERED,
  USERNAME_ALREADY_TAKEN,
} from '../../domain/uniqueKeys/uniqueKey.ts';
import {
  CONFIRMATION_CODE_EXPIRED,
  INVALID_CONFIRMATION_CODE,
  INVALID_RESET_CODE,
} from '../../domain/users/user.decide.ts';
import {
  LOADS_CSV_EMPTY_MESSAGE,
  LOADS_CSV_INVALID_MESSAGE,
} from '../integrations/csv/loadsCsv.ts';

// A small per-minute budget, spent from one address only, to see the rate limit's answer.
process.env.RATE_LIMIT_PER_MINUTE = '40';
const limitedAddress = '10.9.8.7';

// Routes that exist only here, to see every kind of error answer.
const { app, close } = await startTestApp({}, (app) =>
  app.register(async (scope) => {
    scope.post(
      '/api/test/echo',
      {
        schema: {
          body: z.object({
            weight: z.number({ error: 'Please enter weight' }),
            note: z.string('Not a note').optional(),
          }),
        },
      },
      async (request) => request.body,
    );
    scope.get('/api/test/validation', async () => {
      throw ValidationError.field('commodity', 'Please enter commodity');
    });
    scope.get('/api/test/rule', async () => {
      throw ValidationError.field('filters', 'Unknown shape in the shape filter');
    });
    scope.get('/api/test/illegal', async () => {
      throw new IllegalStateError('A load that is Delivered cannot be canceled');
    });
    scope.get('/api/test/explicit', async () => {
      throw new ConflictError('Load 42 is already posted', [], 'load_already_posted');
    });
    scope.get('/api/test/gone', async () => {
      throw new GoneError('Code expired, please register again');
    });
    scope.post('/api/test/upload', async (request) => {
      await readMultipart(request, {
        files: { file: { required: false, accept: 'pdf' } },
        maxBytes: 1024,
      });
      return { ok: true };
    });
    scope.get('/api/test/crash', async () => {
      throw new Error('secret database password in a stack');
    });
    scope.get('/api/test/database-down', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
  }),
);
t.teardown(close);

const answer = async (t: Test, options: InjectOptions, status: number, code: string) => {
  const response = await app.inject(options);
  t.equal(response.statusCode, status, `${status}`);
  const body = response.json();
  t.ok(ErrorBodySchema.safeParse(body).success, 'the shape of ErrorBodySchema');
  t.equal(body.statusCode, status);
  t.equal(body.code, code, `code ${code}`);
  return body as z.infer<typeof ErrorBodySchema>;
};

t.test('a schema 400 carries the code of its message, per field too', async (t) => {
  const body = await answer(
    t,
    { method: 'POST', url: '/api/test/echo', payload: { weight: 'heavy' } },
    400,
    'weight_required',
  );
  t.match(body, {
    message: 'Please enter weight',
    errors: [{ path: 'weight', message: 'Please enter weight', code: 'weight_required' }],
  });
  const other = await answer(
    t,
    { method: 'POST', url: '/api/test/echo', payload: { weight: 1, note: 3 } },
    400,
    'validation_failed',
  );
  t.match(other.errors, [{ path: 'note', message: 'Not a note' }]);
  t.notOk(other.errors?.[0].code, 'a message outside the catalog has no field code');
});

t.test("a domain error carries its catalog code, its explicit code, or its status's", async (t) => {
  await answer(t, { method: 'GET', url: '/api/test/validation' }, 400, 'commodity_required');
  await answer(t, { method: 'GET', url: '/api/test/rule' }, 400, 'validation_failed');
  await answer(t, { method: 'GET', url: '/api/test/illegal' }, 409, 'conflict');
  await answer(t, { method: 'GET', url: '/api/test/explicit' }, 409, 'load_already_posted');
  await answer(t, { method: 'GET', url: '/api/test/gone' }, 410, 'confirmation_code_expired');
});

t.test("the framework's own errors carry a code", async (t) => {
  await answer(
    t,
    {
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"weight": ',
    },
    400,
    'bad_request',
  );
  await answer(
    t,
    {
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'text/csv' },
      payload: 'weight\n1',
    },
    415,
    'unsupported_media_type',
  );
  await answer(
    t,
    {
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ weight: 1, note: 'x'.repeat(1024 * 1024 + 1) }),
    },
    413,
    'payload_too_large',
  );
  const unknown = await answer(t, { method: 'GET', url: '/api/no-such-thing' }, 404, 'not_found');
  t.equal(unknown.error, 'Not Found');
});

t.test(
  'multipart bodies: 415 when the body is not multipart, 413 when a file is too large',
  async (t) => {
    await answer(
      t,
      { method: 'POST', url: '/api/test/upload', payload: { data: '{}' } },
      415,
      'multipart_required',
    );
    const boundary = 'x-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n`,
      ),
      Buffer.alloc(4096, 32),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const tooLarge = await answer(
      t,
      {
        method: 'POST',
        url: '/api/test/upload',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      },
      413,
      'file_too_large',
    );
    t.match(tooLarge.errors, [{ path: 'file', code: 'file_too_large' }]);
  },
);

t.test('sign-in, 5xx and rate-limit answers carry a code', async (t) => {
  await answer(t, { method: 'GET', url: '/api/account' }, 401, 'sign_in_required');
  await answer(
    t,
    { method: 'GET', url: '/api/account', headers: { authorization: 'Bearer not a token' } },
    401,
    'token_not_valid',
  );
  await answer(
    t,
    { method: 'GET', url: '/api/account', headers: { authorization: 'Bearer not-a-token' } },
    401,
    'session_expired',
  );
  const crash = await answer(t, { method: 'GET', url: '/api/test/crash' }, 500, 'internal_error');
  t.notMatch(crash.message, /secret/);
  await answer(t, { method: 'GET', url: '/api/test/database-down' }, 503, 'service_unavailable');
  let last;
  for (let i = 0; i < 45; i++)
    last = await app.inject({ method: 'GET', url: '/api/catalog', remoteAddress: limitedAddress });
  t.equal(last?.statusCode, 429);
  t.ok(ErrorBodySchema.safeParse(last?.json()).success, 'the shape of ErrorBodySchema');
  t.equal(last?.json().code, 'too_many_requests');
});

t.test('the catalog holds the texts the server sends, each once', async (t) => {
  const texts = Object.values(errorMessages) as string[];
  const sent = [
    ORGANIZATION_BLOCKED,
    ORGANIZATION_NOT_ACTIVE,
    EMAIL_NOT_CONFIRMED,
    OLD_PASSWORD_REQUIRED_MESSAGE,
    OLD_PASSWORD_WRONG_MESSAGE,
    ALREADY_INSTALLED_MESSAGE,
    SERVICE_NOT_FOUND_MESSAGE,
    SEARCH_LIMIT_MESSAGE,
    EMAIL_ALREADY_REGISTERED,
    USERNAME_ALREADY_TAKEN,
    CONFIRMATION_CODE_EXPIRED,
    INVALID_CONFIRMATION_CODE,
    INVALID_RESET_CODE,
    LOADS_CSV_EMPTY_MESSAGE,
    LOADS_CSV_INVALID_MESSAGE,
    ...(Object.values(schemaMessages) as unknown[]).filter(
      (value): value is string => typeof value === 'string',
    ),
  ];
  t.same(
    sent.filter((text) => !texts.includes(text)),
    [],
    'every text has a code',
  );
  const codes = Object.keys(errorMessages);
  t.ok(
    codes.every((code) => /^[a-z][a-z0-9_]*$/.test(code)),
    'codes are snake_case',
  );
});
