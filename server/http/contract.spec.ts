import type { FastifyReply } from 'fastify';
import t from 'tap';
import { z } from 'zod';
import { contractCounts } from '../testing/contract.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

// The contract check every spec's app runs (server/testing/contract.ts): each JSON answer is
// validated against the app's own /api/docs/json. Here a route of this app alone declares a nullable
// literal, as the ELD catalogue's `status` does, and can answer outside it.
const StatusAnswer = z.object({ status: z.literal('Installed').nullable() });

const { app, close, contract } = await startTestApp({}, (app) => {
  app.get(
    '/api/contract-check/:value',
    { schema: { response: { 200: StatusAnswer } }, config: { public: true } },
    async (request, typedReply) => {
      const { value } = request.params as { value: string };
      // Answers outside the declared type, on purpose.
      const reply = typedReply as unknown as FastifyReply;
      if (value === 'null') return { status: null };
      if (value === 'installed') return { status: 'Installed' as const };
      if (value === 'accepted') return reply.code(202).send({ status: 'Accepted' });
      // A handler that writes its JSON itself skips the schema's encoding: the drift the check is for.
      return reply.type('application/json').send(JSON.stringify({ status: 'Removed' }));
    },
  );
});
t.teardown(close);
const as = requester(app);

t.ok(contract, 'the check is on');
if (!contract) throw new Error('CONTRACT_CHECK=off: nothing to prove');

t.test('the document lists null among a nullable literal’s values', async (t) => {
  const document = (await as(null).get('/api/docs/json')).body;
  const answer =
    document.paths['/api/contract-check/{value}'].get.responses['200'].content['application/json']
      .schema;
  t.same(answer.properties.status, { type: 'string', nullable: true, enum: ['Installed', null] });
});

t.test('answers inside their schema pass, null included', async (t) => {
  const before = contractCounts();
  for (const value of ['null', 'installed']) {
    const reply = await as(null).get(`/api/contract-check/${value}`);
    t.equal(reply.status, 200);
  }
  t.same(contract.take(), [], 'no mismatch');
  t.equal(contractCounts().validated - before.validated, 2, 'both answers validated');
});

t.test(
  'an answer outside its declared enum is recorded with its route, status and path',
  async (t) => {
    const before = contractCounts();
    const reply = await as(null).get('/api/contract-check/removed');
    t.same([reply.status, reply.body], [200, { status: 'Removed' }], 'the answer itself goes out');
    t.same(contract.take(), [
      {
        answer: 'GET /api/contract-check/:value 200',
        errors: ['/status: must be equal to one of the allowed values (["Installed",null])'],
      },
    ]);
    t.equal(contractCounts().validated - before.validated, 1);
  },
);

t.test('closing the app throws a mismatch no test took', async (t) => {
  await as(null).get('/api/contract-check/removed');
  t.throws(() => contract.assertClean(), {
    message:
      /GET \/api\/contract-check\/:value 200: \/status: must be equal to one of the allowed values/,
  });
  t.same(contract.take(), [], 'thrown once, then gone');
});

t.test('an answer whose status declares no schema is counted apart, not validated', async (t) => {
  const before = contractCounts();
  const reply = await as(null).get('/api/contract-check/accepted');
  t.equal(reply.status, 202);
  const after = contractCounts();
  t.same([after.validated - before.validated, after.unschemed - before.unschemed], [0, 1]);
  t.same(contract.take(), []);
});
