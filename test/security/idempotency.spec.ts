// @postgres: idempotency keys under concurrent retries
/**
 * Idempotency keys on the commands that create things: a retry with the same key and body gets the
 * first answer again and nothing happens twice; another body with the key is refused (422); a copy
 * while the first still runs elsewhere gets 409. Figure: duplicates 0.
 */
import t from 'tap';
import { sql } from 'kysely';
import { bearer, multipart, organization } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { startTestApp } from '../../server/testing/testApp.ts';

t.setTimeout(600_000);
const { app, platform, close } = await startTestApp();
t.teardown(close);
const db = platform.database.db;

const shipper = await organization(app, platform, 'Shipper', { name: 'Idempotent Foods' });
const colleague = await organization(app, platform, 'Shipper', { name: 'Other Idempotent Foods' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Idempotent Hauling' });

const postLoad = (token: string, key: string | null, body: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/loads',
    headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) },
    payload: body as object,
  });
const loadsWithRef = async (refNumber: string) => {
  // A post answers once its events are committed: the count is read once the read model has them all.
  await platform.runner.waitFor(['marketplace'], await platform.store.committedHead(), 30_000);
  const { rows } = await sql<{
    count: string;
  }>`SELECT count(*)::text AS count FROM loads_view WHERE ref_number = ${refNumber}`.execute(db);
  return Number(rows[0].count);
};

let duplicates = 0;

t.test('100 parallel copies of one key: one load, one answer', async (t) => {
  const body = loadBody({ refNumber: 'IDEM-100' });
  const answers = await Promise.all(
    Array.from({ length: 100 }, () => postLoad(shipper.token, 'key-100-parallel', body)),
  );
  const statuses = new Set(answers.map((answer) => answer.statusCode));
  t.same([...statuses], [201], 'every copy answers 201');
  t.equal(new Set(answers.map((answer) => answer.body)).size, 1, 'every copy gets the same body');
  t.equal(
    answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true').length,
    99,
    'all but the first are replays',
  );
  const created = await loadsWithRef('IDEM-100');
  t.equal(created, 1, 'exactly one load in the read model');
  duplicates += created - 1;

  const later = await postLoad(shipper.token, 'key-100-parallel', body);
  t.equal(later.statusCode, 201);
  t.equal(later.body, answers[0].body, 'a later retry still gets the first answer');
  t.equal(later.headers['idempotent-replayed'], 'true');
  t.equal(await loadsWithRef('IDEM-100'), 1);
  t.comment(
    `idempotency: 100 parallel copies + 1 retry, loads created 1, duplicates ${created - 1}`,
  );
});

t.test('the same key with another body is refused with 422 and changes nothing', async (t) => {
  const first = await postLoad(shipper.token, 'key-mismatch', loadBody({ refNumber: 'IDEM-A' }));
  t.equal(first.statusCode, 201);
  const other = await postLoad(shipper.token, 'key-mismatch', loadBody({ refNumber: 'IDEM-B' }));
  t.equal(other.statusCode, 422, other.body);
  t.match(other.json(), { statusCode: 422, message: /different request/ });
  t.equal(await loadsWithRef('IDEM-B'), 0, 'the second body created nothing');
  t.equal(await loadsWithRef('IDEM-A'), 1);
});

t.test('keys are per user; without a key every request is its own', async (t) => {
  const body = loadBody({ refNumber: 'IDEM-USERS' });
  t.equal((await postLoad(shipper.token, 'shared-key', body)).statusCode, 201);
  const other = await postLoad(colleague.token, 'shared-key', body);
  t.equal(other.statusCode, 201, 'another user with the same key is another request');
  t.notOk(other.headers['idempotent-replayed']);
  t.equal(await loadsWithRef('IDEM-USERS'), 2);
  const plain = loadBody({ refNumber: 'IDEM-NOKEY' });
  await postLoad(shipper.token, null, plain);
  await postLoad(shipper.token, null, plain);
  t.equal(await loadsWithRef('IDEM-NOKEY'), 2, 'no key, no deduplication');
  t.equal(
    (await postLoad(shipper.token, 'bad key with spaces', body)).statusCode,
    400,
    'a malformed key is refused',
  );
});

t.test('a copy while the first is still running elsewhere gets 409', async (t) => {
  // The first request of another server process: its row is there, its answer not yet.
  await sql`INSERT INTO idempotency_keys (user_id, key, target) VALUES (${shipper.userId}, 'key-in-flight', 'POST /api/loads')`.execute(
    db,
  );
  const copy = await postLoad(
    shipper.token,
    'key-in-flight',
    loadBody({ refNumber: 'IDEM-FLIGHT' }),
  );
  t.equal(copy.statusCode, 409, copy.body);
  t.equal(await loadsWithRef('IDEM-FLIGHT'), 0);
});

t.test(
  'a refused first request (400) is replayed too: a corrected body needs a new key',
  async (t) => {
    const invalid = loadBody({ loadEquipment: [] });
    const bad = await postLoad(shipper.token, 'key-invalid-first', invalid);
    t.equal(bad.statusCode, 400);
    const again = await postLoad(shipper.token, 'key-invalid-first', invalid);
    t.equal(again.statusCode, 400, 'the same invalid body gets the same 400');
    t.equal(again.headers['idempotent-replayed'], 'true');
    t.equal(
      (await postLoad(shipper.token, 'key-invalid-first', loadBody({ refNumber: 'IDEM-FIXED' })))
        .statusCode,
      422,
      'a corrected body needs a new key',
    );
  },
);

t.test('multipart (CSV import) and the other creating commands', async (t) => {
  const template = (
    await app.inject({
      method: 'GET',
      url: '/api/loads/batchImport/template',
      headers: bearer(shipper.token),
    })
  ).body;
  const csv = template.replace('PO-10045', 'IDEM-CSV');
  const upload = (text: string, key: string) => {
    const form = multipart(undefined, {
      csv_loads_file: { content: Buffer.from(text), filename: 'loads.csv', type: 'text/csv' },
    });
    return app.inject({
      method: 'POST',
      url: '/api/loads/batchImport',
      headers: { ...form.headers, ...bearer(shipper.token), 'idempotency-key': key },
      payload: form.payload,
    });
  };
  const first = await upload(csv, 'key-csv');
  t.equal(first.statusCode, 201, first.body);
  // A new multipart boundary each time: the same file is still a different body.
  const form = multipart(undefined, {
    csv_loads_file: { content: Buffer.from(csv), filename: 'loads.csv', type: 'text/csv' },
  });
  const exact = await app.inject({
    method: 'POST',
    url: '/api/loads/batchImport',
    headers: { ...form.headers, ...bearer(shipper.token), 'idempotency-key': 'key-csv-exact' },
    payload: form.payload,
  });
  const exactAgain = await app.inject({
    method: 'POST',
    url: '/api/loads/batchImport',
    headers: { ...form.headers, ...bearer(shipper.token), 'idempotency-key': 'key-csv-exact' },
    payload: form.payload,
  });
  t.equal(exact.statusCode, 201);
  t.equal(exactAgain.statusCode, 201);
  t.equal(exactAgain.headers['idempotent-replayed'], 'true', 'the byte-identical body is replayed');
  t.equal(exactAgain.body, exact.body);
  t.equal(await loadsWithRef('IDEM-CSV'), 2, 'two imports, not three');
  t.equal(
    (await upload(csv.replace('IDEM-CSV', 'IDEM-CSV2'), 'key-csv')).statusCode,
    422,
    'another file with the key: 422',
  );
  t.equal(await loadsWithRef('IDEM-CSV2'), 0);

  const search = {
    name: 'Chicago lane',
    origin: { latitude: 41.8781, longitude: -87.6298, radius: 50 },
  };
  const save = () =>
    app.inject({
      method: 'POST',
      url: '/api/searches',
      headers: { ...bearer(carrier.token), 'idempotency-key': 'key-search' },
      payload: search,
    });
  const [a, b] = [await save(), await save()];
  t.equal(a.statusCode, 201, a.body);
  t.equal(b.body, a.body);
  const searches = (
    await app.inject({ method: 'GET', url: '/api/searches', headers: bearer(carrier.token) })
  ).json();
  t.equal(
    searches.filter((entry: { name: string }) => entry.name === 'Chicago lane').length,
    1,
    'one saved search',
  );
  t.comment(`idempotency: duplicates ${duplicates}`);
});
