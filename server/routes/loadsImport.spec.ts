// @postgres: a batch import written in one transaction or not at all
/**
 * The CSV import over HTTP (POST loads/batchImport with the file `csv_loads_file`, GET
 * loads/batchImport/template): the template imports as it is, a thousand rows import at once, one
 * bad row stops the whole file, and only an Active shipper may import.
 */
import t from 'tap';
import { WEIGHT_MESSAGE } from '../../domain/schemas/load.schema.ts';
import { bearer, multipart, organization, PNG, type Member } from '../identity/fixtures.ts';
import { LOADS_CSV_COLUMNS, LOADS_CSV_INVALID_MESSAGE } from '../integrations/csv/loadsCsv.ts';
import { loadStream } from '../../domain/loads/load.types.ts';
import { watchEvents } from '../testing/events.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper', { name: 'Import Foods' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Import Hauling' });
const pendingShipper = await organization(app, platform, 'Shipper', {
  name: 'Not Yet Approved',
  status: 1,
});

type CsvFile = { content: Buffer; filename?: string; type?: string };
const csvFile = (text: string, filename = 'loads.csv'): CsvFile => ({
  content: Buffer.from(text),
  filename,
  type: 'text/csv',
});

const upload = (user: Member | null, files: Record<string, CsvFile>, data?: unknown) => {
  const form = multipart(data, files);
  return app.inject({
    method: 'POST',
    url: '/api/loads/batchImport',
    headers: { ...form.headers, ...(user ? bearer(user.token) : {}) },
    payload: form.payload,
  });
};
const get = (url: string, user: Member) =>
  app.inject({ method: 'GET', url, headers: bearer(user.token) });
const tableTotal = async (user: Member = shipper): Promise<number> => {
  const response = await get('/api/loads/shipper?pageSize=5', user);
  if (response.statusCode !== 200)
    throw new Error(`the shipper table answered ${response.statusCode}: ${response.body}`);
  return response.json().total;
};

const events = await watchEvents(platform.store);
let header = '';
let exampleRow = '';

/** Rows like the template's example, each with its own reference number (the template's is PO-10045). */
const rowsLike = (count: number, tag: string) =>
  Array.from({ length: count }, (_, index) =>
    exampleRow.replace('PO-10045', `${tag}-${String(index).padStart(4, '0')}`),
  );
const csvOf = (rows: string[]) => `${[header, ...rows].join('\r\n')}\r\n`;

t.test(
  'the template downloads as CSV with the header and one row, and imports as it is',
  async (t) => {
    const template = await get('/api/loads/batchImport/template', shipper);
    t.equal(template.statusCode, 200);
    t.match(template.headers['content-type'], /^text\/csv/);
    t.match(template.headers['content-disposition'], /^attachment; filename="loads-template\.csv"/);
    const lines = template.body.split('\r\n').filter((line) => line !== '');
    t.equal(lines.length, 2, 'the header and one example row');
    [header, exampleRow] = lines as [string, string];
    t.same(
      header.split(','),
      [...LOADS_CSV_COLUMNS],
      "the header names the parser's columns, in order",
    );
    t.match(exampleRow, /Chicago, IL/);

    const before = await tableTotal();
    const imported = await upload(shipper, {
      csv_loads_file: csvFile(template.body, 'loads-template.csv'),
    });
    t.equal(imported.statusCode, 201, imported.body);
    t.match(imported.json(), { created: 1 }, 'one load created');
    t.equal(imported.json().ids.length, 1);
    await events.expect(t, [
      {
        type: 'LoadPosted',
        stream: loadStream(imported.json().ids[0]),
        data: {
          loadId: imported.json().ids[0],
          shipperOrganizationId: shipper.organizationId,
          postedBy: shipper.userId,
          details: { refNumber: 'PO-10045', weight: 42000 },
        },
      },
    ]);
    t.equal(await tableTotal(), before + 1, "the load is in the shipper's table at once");

    const load = (await get(`/api/loads/${imported.json().ids[0]}`, shipper)).json();
    t.match(load, {
      status: 4,
      commodity: 'Frozen food',
      refNumber: 'PO-10045',
      weight: 42000,
      pickupTimezone: 'America/Chicago',
      dropoffTimezone: 'America/New_York',
    });
    t.match(
      load.locations,
      [
        {
          locationType: 1,
          city: 'Chicago',
          state: 'IL',
          name: 'Acme Distribution Center',
          contactName: 'Ann Lee',
        },
        { locationType: 4, city: 'Indianapolis', state: 'IN', name: 'Beta Foods Warehouse' },
      ],
      'the places were geocoded by the gazetteer',
    );
    t.ok(
      Math.abs(load.locations[0].latitude - 41.85) < 0.2 &&
        Math.abs(load.locations[0].longitude + 87.65) < 0.2,
      'Chicago is where Chicago is',
    );
  },
);

t.test('a 1,000-row file imports at once', async (t) => {
  const before = await tableTotal();
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  const imported = await upload(shipper, {
    csv_loads_file: csvFile(csvOf(rowsLike(1000, 'BULK'))),
  });
  const elapsed = Math.round(performance.now() - started);
  const used = process.cpuUsage(cpu);
  t.equal(
    imported.statusCode,
    201,
    `201 Created${imported.statusCode === 201 ? '' : `: ${imported.body.slice(0, 500)}`}`,
  );
  const { created, ids } = imported.json();
  t.equal(created, 1000);
  t.equal(new Set(ids).size, 1000, 'a thousand distinct loads');
  const posted = await events.take();
  t.same(
    posted.map((event) => event.type),
    Array.from({ length: 1000 }, () => 'LoadPosted'),
    'one LoadPosted per row',
  );
  t.same(
    posted.map((event) => event.streamId),
    ids.map((id: string) => loadStream(id)),
    "on each load's stream, in the order of the file",
  );
  t.equal(await tableTotal(), before + 1000, "the shipper's table grew by 1000");
  const last = (
    await get(`/api/loads/shipper?pageSize=5&search=${encodeURIComponent('BULK-0999')}`, shipper)
  ).json();
  t.equal(last.total, 1, 'the last row is a load of its own');
  t.comment(
    `1,000-row import: ${elapsed} ms (${Math.round((used.user + used.system) / 1000)} ms CPU)`,
  );
});

t.test('one bad row among good ones: 400 naming that row, and nothing is created', async (t) => {
  const before = await tableTotal();
  const rows = rowsLike(5, 'MIXED');
  // The file's line 4: the header is line 1, so this is the third load.
  rows[2] = rows[2]!.replace(',42000,', ',heavy,');
  t.not(rows[2], exampleRow, 'the weight cell was changed');
  const refused = await upload(shipper, { csv_loads_file: csvFile(csvOf(rows)) });
  t.equal(refused.statusCode, 400, refused.body);
  const body = refused.json();
  t.equal(body.message, LOADS_CSV_INVALID_MESSAGE);
  t.same(
    body.errors,
    [{ row: 4, field: 'weight', message: WEIGHT_MESSAGE }],
    "one error: line 4, column weight, with the form's message",
  );
  t.equal(await tableTotal(), before, 'no load of the file was created');

  const unknownPlace = rowsLike(3, 'PLACE');
  unknownPlace[1] = unknownPlace[1]!.replace('"Indianapolis, IN"', '"Nowhere Town, ZZ"');
  const notFound = await upload(shipper, { csv_loads_file: csvFile(csvOf(unknownPlace)) });
  t.equal(notFound.statusCode, 400, notFound.body);
  t.ok(
    notFound.json().errors.length > 0 &&
      notFound
        .json()
        .errors.every(
          (error: { row: number; field: string }) =>
            error.row === 3 && error.field === 'dropoffAddress',
        ),
    `an unknown place names line 3, column dropoffAddress: ${JSON.stringify(notFound.json().errors)}`,
  );
  t.equal(await tableTotal(), before, 'still nothing created');
  await events.expect(t, [], { message: 'a refused file appends nothing' });
});

t.test('the file itself: a PNG named .csv is 415, no file is 400', async (t) => {
  const png = await upload(shipper, {
    csv_loads_file: { content: PNG, filename: 'loads.csv', type: 'text/csv' },
  });
  t.equal(png.statusCode, 415, 'the bytes decide, not the name or the declared type');
  t.match(png.json(), { message: 'Unsupported Format', errors: [{ path: 'csv_loads_file' }] });

  const withoutFile = await upload(shipper, {}, { note: 'no file attached' });
  t.equal(withoutFile.statusCode, 400);
  t.match(withoutFile.json(), {
    message: 'A file is required',
    errors: [{ path: 'csv_loads_file', message: 'A file is required' }],
  });
  // A browser sends an empty, nameless part for a file input left empty.
  const emptyInput = await upload(shipper, {
    csv_loads_file: { content: Buffer.alloc(0), filename: '', type: 'application/octet-stream' },
  });
  t.equal(emptyInput.statusCode, 400);
  t.match(emptyInput.json(), { message: 'A file is required' });
  await events.expect(t, [], { message: 'a refused file appends nothing' });
});

t.test('who may import: an Active shipper only', async (t) => {
  const before = await tableTotal();
  const file = () => ({ csv_loads_file: csvFile(csvOf(rowsLike(1, 'WHO'))) });
  t.equal((await upload(null, file())).statusCode, 401, 'anonymous');
  const asCarrier = await upload(carrier, file());
  t.equal(asCarrier.statusCode, 403, 'a carrier');
  t.equal(
    (await get('/api/loads/batchImport/template', carrier)).statusCode,
    403,
    'a carrier gets no template either',
  );
  const pending = await upload(pendingShipper, file());
  t.equal(pending.statusCode, 403, 'a shipper whose organization is Pending');
  t.equal(pending.json().message, 'Your organization is not active yet');
  t.equal(
    (await get('/api/loads/shipper?pageSize=5', pendingShipper)).statusCode,
    403,
    'nor a loads table to look at while it waits',
  );
  t.equal(
    (
      await platform.database.db
        .selectFrom('loads_view')
        .select('id')
        .where('shipper_organization_id', '=', pendingShipper.organizationId!)
        .execute()
    ).length,
    0,
    'the Pending shipper has no loads',
  );
  t.equal(await tableTotal(), before, 'nothing created for anyone');
  await events.expect(t, [], { message: 'a refused import appends nothing' });
});
