/**
 * Uploads and CSV: oversized, disguised and polyglot files, hostile file names, too many parts,
 * downloads across tenants; formula cells, BOM, quoted newlines, too many rows and repeated imports.
 * Figures: bad uploads accepted 0, orphan files 0; duplicates 0, unescaped cells 0.
 */
import t from 'tap';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import {
  bearer,
  multipart,
  organization,
  PDF,
  type Member,
} from '../../server/identity/fixtures.ts';
import { LOADS_CSV_DEFAULT_MAX_ROWS } from '../../server/integrations/csv/loadsCsv.ts';
import { limits } from '../../domain/catalog.ts';
import { startTestApp } from '../../server/testing/testApp.ts';

t.setTimeout(600_000);
const { app, platform, close } = await startTestApp();
t.teardown(close);
const db = platform.database.db;

const carrier = await organization(app, platform, 'Carrier', { name: 'Upload Hauling' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Other Hauling' });
const shipper = await organization(app, platform, 'Shipper', {
  name: 'Upload Foods',
  userName: "=cmd|' /C calc'!A0",
});

const fileCount = async () =>
  Number(
    (await sql<{ count: string }>`SELECT count(*)::text AS count FROM files`.execute(db)).rows[0]
      .count,
  );
const carrierProfile = {
  mcNumber: 123456,
  dotNumber: 7654321,
  eldProvider: null,
  trucks: [],
  trailers: [],
  driverTeams: [],
};
type Part = { content: Buffer; filename?: string; type?: string };
const send = (user: Member, url: string, data: unknown, files: Record<string, Part>) => {
  const form = multipart(data, files);
  return app.inject({
    method: 'POST',
    url,
    headers: { ...form.headers, ...bearer(user.token) },
    payload: form.payload,
  });
};

let badAccepted = 0;
let orphans = 0;

t.test('uploads: bad files refused, nothing stored', async (t) => {
  const account = (
    await app.inject({ method: 'GET', url: '/api/account', headers: bearer(carrier.token) })
  ).json();
  const data = {
    ...carrierProfile,
    ...(account.carrier
      ? {
          mcNumber: account.carrier.mcNumber ?? 123456,
          dotNumber: account.carrier.dotNumber ?? 7654321,
        }
      : {}),
  };
  const control = await send(carrier, '/api/users/carrier', data, {
    mcAuthority: { content: PDF, filename: 'mc.pdf', type: 'application/pdf' },
  });
  t.equal(control.statusCode, 200, `control: a real PDF is accepted ${control.body}`);

  const before = await fileCount();
  const exe = Buffer.concat([
    Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
    Buffer.alloc(200, 0x41),
  ]);
  const html = Buffer.from(
    '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
  );
  const svg = Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
  );
  const big = Buffer.concat([PDF, Buffer.alloc(limits.documentMaxBytes + 1 - PDF.length, 0x20)]);
  const cases: [string, string, Record<string, Part>, number[]][] = [
    [
      '5 MiB + 1',
      '/api/users/carrier',
      { mcAuthority: { content: big, filename: 'big.pdf', type: 'application/pdf' } },
      [413],
    ],
    [
      'exe named .pdf',
      '/api/users/carrier',
      { mcAuthority: { content: exe, filename: 'invoice.pdf', type: 'application/pdf' } },
      [415],
    ],
    [
      'HTML as PNG',
      '/api/users/shipper',
      { signature: { content: html, filename: 'sign.png', type: 'image/png' } },
      [415],
    ],
    [
      'SVG as signature',
      '/api/users/shipper',
      { signature: { content: svg, filename: 'sign.svg', type: 'image/svg+xml' } },
      [415],
    ],
    [
      'HTML as PDF',
      '/api/users/carrier',
      { w9Form: { content: html, filename: 'w9.pdf', type: 'application/pdf' } },
      [415],
    ],
    [
      'empty-named part with a script',
      '/api/users/carrier',
      {
        certificateOfInsurance: {
          content: Buffer.from('#!/bin/sh\nrm -rf /\n'),
          filename: '',
          type: 'application/pdf',
        },
      },
      [415],
    ],
    [
      'unexpected file field',
      '/api/users/carrier',
      { evil: { content: PDF, filename: 'evil.pdf' } },
      [400],
    ],
  ];
  for (const [name, url, files, expected] of cases) {
    const response = await send(
      url.endsWith('shipper') ? shipper : carrier,
      url,
      url.endsWith('shipper') ? { insuredAmount: 1 } : data,
      files,
    );
    if (!expected.includes(response.statusCode)) badAccepted += 1;
    t.ok(
      expected.includes(response.statusCode),
      `${name}: ${response.statusCode} ${response.body.slice(0, 120)}`,
    );
    t.notMatch(response.body, /at .*\.ts:\d+/, 'no stack trace');
  }

  // 1,001 parts.
  const boundary = '----manyparts';
  const parts = Array.from(
    { length: 1001 },
    (_, index) => `--${boundary}\r\nContent-Disposition: form-data; name="f${index}"\r\n\r\nx\r\n`,
  ).join('');
  const many = await app.inject({
    method: 'POST',
    url: '/api/users/carrier',
    headers: {
      ...bearer(carrier.token),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: `${parts}--${boundary}--\r\n`,
  });
  if (many.statusCode !== 413) badAccepted += 1;
  t.equal(many.statusCode, 413, '1,001 parts');

  orphans = (await fileCount()) - before;
  t.equal(orphans, 0, 'no row in files after the refused uploads');
});

t.test(
  'uploads: names never used; downloads are attachments, nosniff, and per tenant',
  async (t) => {
    const account = (
      await app.inject({ method: 'GET', url: '/api/account', headers: bearer(carrier.token) })
    ).json();
    const data = {
      ...carrierProfile,
      mcNumber: account.carrier?.mcNumber ?? 123456,
      dotNumber: account.carrier?.dotNumber ?? 7654321,
    };
    // A polyglot: a PDF header with HTML behind it. Stored as a PDF, it must only ever come back as one.
    const polyglot = Buffer.concat([PDF, Buffer.from('<html><script>alert(1)</script></html>')]);
    const response = await send(carrier, '/api/users/carrier', data, {
      mcAuthority: { content: polyglot, filename: '../../../etc/passwd.pdf', type: 'text/html' },
      w9Form: { content: PDF, filename: 'w9\r\nX-Injected: yes\r\n.pdf', type: 'application/pdf' },
      certificateOfInsurance: {
        content: PDF,
        filename: '..\\..\\windows\\win.ini',
        type: 'application/pdf',
      },
    });
    t.equal(response.statusCode, 200, response.body);
    const ids = Object.values(response.json().documents as Record<string, string>);
    t.ok(ids.length >= 2);
    for (const id of ids) {
      t.match(
        id,
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        'stored by a random UUID',
      );
      const download = await app.inject({
        method: 'GET',
        url: `/api/files/${id}`,
        headers: bearer(carrier.token),
      });
      t.equal(download.statusCode, 200);
      t.equal(
        download.headers['content-type'],
        'application/pdf',
        'served as the type its bytes have, never text/html',
      );
      t.equal(download.headers['x-content-type-options'], 'nosniff');
      t.match(
        download.headers['content-disposition'],
        /^attachment; filename="[^"/\\\r\n]+"; filename\*=UTF-8''/,
      );
      t.notMatch(
        String(download.headers['content-disposition']),
        /passwd|win\.ini|\.\.|X-Injected/,
        'the client name is not used',
      );
      t.notOk(download.headers['x-injected']);
      t.equal(
        (
          await app.inject({
            method: 'GET',
            url: `/api/files/${id}`,
            headers: bearer(otherCarrier.token),
          })
        ).statusCode,
        404,
        'another tenant: 404',
      );
      t.equal(
        (
          await app.inject({
            method: 'GET',
            url: `/api/files/${id}`,
            headers: bearer(shipper.token),
          })
        ).statusCode,
        404,
      );
    }
    // `../` is resolved by the URL parser before routing (it leaves /api/files); encoded, it is no id.
    const traversal = await app.inject({
      method: 'GET',
      url: '/api/files/../../etc/passwd',
      headers: bearer(carrier.token),
    });
    t.notOk(
      String(traversal.headers['content-type']).startsWith('application/pdf'),
      `../: ${traversal.statusCode}, no stored file`,
    );
    for (const id of [
      '%2e%2e%2fetc%2fpasswd',
      '..%2F..%2Fetc%2Fpasswd',
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/files/${id}`,
        headers: bearer(carrier.token),
      });
      t.ok([400, 404].includes(response.statusCode), `${id}: ${response.statusCode}`);
    }
    t.comment(`uploads: bad accepted ${badAccepted}, orphan files ${orphans}`);
  },
);

let duplicates = 0;
let unescaped = 0;

t.test(
  'CSV import: BOM, quoted newlines, formulas kept as text, too many rows, the same file twice',
  async (t) => {
    const template = (
      await app.inject({
        method: 'GET',
        url: '/api/loads/batchImport/template',
        headers: bearer(shipper.token),
      })
    ).body;
    const [header, example] = parse(template, { relax_column_count: true }) as string[][];
    const quote = (cells: string[]) =>
      cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(',');
    const rowWith = (changes: Record<string, string>) =>
      quote(header.map((name, index) => changes[name] ?? example[index]));
    const upload = (text: string | Buffer) => {
      const form = multipart(undefined, {
        csv_loads_file: {
          content: Buffer.isBuffer(text) ? text : Buffer.from(text),
          filename: 'loads.csv',
          type: 'text/csv',
        },
      });
      return app.inject({
        method: 'POST',
        url: '/api/loads/batchImport',
        headers: { ...form.headers, ...bearer(shipper.token) },
        payload: form.payload,
      });
    };
    t.ok(
      header.includes('description') &&
        header.includes('commodity') &&
        header.includes('refNumber'),
      `columns ${header.join(',')}`,
    );

    const file = `${quote(header)}\r\n${rowWith({ refNumber: 'CSV-1', description: 'line one\nline two, "quoted"', commodity: "=cmd|' /C calc'!A0" })}\r\n${rowWith({ refNumber: 'CSV-2', commodity: '@SUM(1+1)' })}\r\n`;
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(file)]);
    const first = await upload(withBom);
    t.equal(first.statusCode, 201, `a BOM and quoted newlines import ${first.body}`);
    const second = await upload(withBom);
    t.equal(second.statusCode, 201, 'the same file again is a second batch');
    const firstIds: string[] = first.json().ids;
    const secondIds: string[] = second.json().ids;
    t.equal(new Set(firstIds).size, 2, 'two loads in the first batch, no duplicate within it');
    t.equal(new Set([...firstIds, ...secondIds]).size, 4, 'two distinct batches');
    // Read straight from the read model: first let it reach the imports (an API read would wait itself).
    t.ok(
      await platform.runner.waitFor(['marketplace'], await platform.store.head(), 5_000),
      'the marketplace read model reached the imports',
    );
    const { rows } = await sql<{
      ref_number: string;
      count: string;
    }>`SELECT ref_number, count(*)::text AS count FROM loads_view WHERE ref_number IN ('CSV-1', 'CSV-2') GROUP BY ref_number ORDER BY ref_number`.execute(
      db,
    );
    t.same(
      rows.map((row) => [row.ref_number, Number(row.count)]),
      [
        ['CSV-1', 2],
        ['CSV-2', 2],
      ],
    );
    duplicates = rows.reduce((sum, row) => sum + Number(row.count) - 2, 0);
    const load = (
      await app.inject({
        method: 'GET',
        url: `/api/loads/${firstIds[0]}`,
        headers: bearer(shipper.token),
      })
    ).json();
    t.equal(load.description, 'line one\nline two, "quoted"', 'the quoted newline survives');
    t.equal(load.commodity, "=cmd|' /C calc'!A0", 'a formula is kept as plain text');

    const tooMany = `${quote(header)}\r\n${Array.from({ length: LOADS_CSV_DEFAULT_MAX_ROWS + 1 }, (_, index) => rowWith({ refNumber: `MANY-${index}` })).join('\r\n')}\r\n`;
    const over = await upload(tooMany);
    t.equal(
      over.statusCode,
      413,
      `${LOADS_CSV_DEFAULT_MAX_ROWS + 1} rows: ${over.body.slice(0, 160)}`,
    );
    const { rows: many } = await sql<{
      count: string;
    }>`SELECT count(*)::text AS count FROM loads_view WHERE ref_number LIKE 'MANY-%'`.execute(db);
    t.equal(Number(many[0].count), 0, 'nothing imported');
    const bad = await upload(
      `${quote(header)}\r\n${rowWith({ refNumber: 'BAD-1', weight: 'heavy' })}\r\n`,
    );
    t.equal(bad.statusCode, 400);
    t.ok(
      bad
        .json()
        .errors.some(
          (error: { row: number; field: string }) => error.row === 2 && error.field === 'weight',
        ),
      'a per-row error',
    );

    // Export: the history of the load as CSV; the user and organization names were chosen to be formulas.
    const exported = await app.inject({
      method: 'GET',
      url: `/api/loads/${firstIds[0]}/history?format=csv`,
      headers: bearer(shipper.token),
    });
    t.equal(exported.statusCode, 200);
    t.match(exported.headers['content-disposition'], /^attachment; /);
    const cells = (parse(exported.body, { relax_column_count: true }) as string[][]).flat();
    t.ok(
      cells.some((cell) => cell.startsWith("'=cmd")),
      "the user's formula name is exported with a ' prefix",
    );
    unescaped = cells.filter((cell) => /^[=+\-@\t\r]/.test(cell)).length;
    t.equal(unescaped, 0, 'no cell starts with = + - @ tab or CR');
    t.comment(
      `CSV: duplicates ${duplicates}, unescaped cells ${unescaped}, ${LOADS_CSV_DEFAULT_MAX_ROWS + 1} rows → 413`,
    );
  },
);
