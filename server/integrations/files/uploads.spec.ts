// @postgres: uploads stored in the database
import t from 'tap';
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { errorHandler } from '../../http/errors.ts';
import { openAuthTestDatabase } from '../../auth/testing.ts';
import { createFileStore } from './files.ts';
import { contentDisposition, multipartLimits, readMultipart } from './uploads.ts';

const database = await openAuthTestDatabase();
t.teardown(() => database.drop());

const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0'),
  Buffer.alloc(64),
  Buffer.from([0xff, 0xd9]),
]);
const exe = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64),
  Buffer.from('PE\0\0'),
  Buffer.alloc(256),
]);
const html = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
const svg = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
);
const organizationId = randomUUID();

const app = Fastify();
app.setErrorHandler(errorHandler);
await app.register(multipart, { limits: multipartLimits });
// As a real route does: read and check everything, then save, so nothing is half-written.
app.post('/upload', async (request, reply) => {
  const { data, fields, files } = await readMultipart(request, {
    files: {
      contract: { required: true, accept: 'pdf' },
      signature: { required: false, accept: 'image' },
    },
  });
  const store = createFileStore(database.db);
  const ids = await store.saveAll(
    Object.entries(files).map(([kind, file]) => ({
      organizationId,
      kind,
      mime: file.mime,
      data: file.buffer,
    })),
  );
  return reply.code(201).send({
    data,
    fields,
    files: Object.fromEntries(
      Object.entries(files).map(([name, file]) => [name, { mime: file.mime, size: file.size }]),
    ),
    ids,
  });
});
app.post('/csv', async (request) => {
  const { files } = await readMultipart(request, {
    files: { csv_loads_file: { required: true, accept: 'csv' } },
  });
  return { mime: files.csv_loads_file.mime, size: files.csv_loads_file.size };
});
app.post('/many', async (request) => {
  const names = Array.from({ length: 7 }, (_, i) => [
    `file${i}`,
    { required: false, accept: 'pdf' as const },
  ]);
  const { files } = await readMultipart(request, { files: Object.fromEntries(names) });
  return { count: Object.keys(files).length };
});
app.get('/download', async (request, reply) => {
  const name = (request.query as { name: string }).name;
  return reply
    .header('content-disposition', contentDisposition(name))
    .header('x-content-type-options', 'nosniff')
    .type('application/pdf')
    .send(pdf);
});
await app.ready();
t.teardown(() => app.close());

type Part = [name: string, value: string | { bytes: Buffer; filename: string; type?: string }];
const form = (...parts: Part[]) => {
  const body = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') body.append(name, value);
    else
      body.append(
        name,
        new Blob([new Uint8Array(value.bytes)], { type: value.type ?? 'application/octet-stream' }),
        value.filename,
      );
  }
  return body;
};
/** Serialises a FormData exactly as fetch would, then injects it. */
async function send(body: FormData, url = '/upload') {
  const encoded = new Response(body);
  const payload = Buffer.from(await encoded.arrayBuffer());
  const response = await app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
  return { status: response.statusCode, body: response.json() };
}
const fileCount = async () =>
  Number(
    (
      await database.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

t.test('a real PDF with data and plain fields is accepted', async (t) => {
  const response = await send(
    form(
      ['data', JSON.stringify({ insuredAmount: 2 })],
      ['status', '14'],
      ['contract', { bytes: pdf, filename: 'contract.pdf', type: 'application/pdf' }],
    ),
  );
  t.equal(response.status, 201);
  t.same(response.body.data, { insuredAmount: 2 });
  t.same(response.body.fields, { status: '14' });
  t.same(response.body.files, { contract: { mime: 'application/pdf', size: pdf.length } });
});

t.test('the type comes from the bytes, not the name or Content-Type', async (t) => {
  const before = await fileCount();
  const named = await send(
    form(['contract', { bytes: pdf, filename: 'evil.exe', type: 'application/x-msdownload' }]),
  );
  t.equal(named.status, 201, 'a PDF named .exe is still a PDF');
  t.equal(named.body.files.contract.mime, 'application/pdf');

  const exeAsPdf = await send(
    form(['contract', { bytes: exe, filename: 'x.pdf', type: 'application/pdf' }]),
  );
  t.equal(exeAsPdf.status, 415);
  t.match(exeAsPdf.body, {
    statusCode: 415,
    error: 'Unsupported Media Type',
    message: 'Unsupported Format',
    errors: [{ path: 'contract', message: 'Unsupported Format' }],
  });

  // A valid contract first, then a bad signature: the contract must not be saved either.
  const htmlAsPng = await send(
    form(
      ['contract', { bytes: pdf, filename: 'c.pdf' }],
      ['signature', { bytes: html, filename: 'sig.png', type: 'image/png' }],
    ),
  );
  t.equal(htmlAsPng.status, 415);
  t.match(htmlAsPng.body.errors, [{ path: 'signature', message: 'Unsupported Format' }]);
  const svgAsImage = await send(
    form(
      ['contract', { bytes: pdf, filename: 'c.pdf' }],
      ['signature', { bytes: svg, filename: 'sig.svg', type: 'image/svg+xml' }],
    ),
  );
  t.equal(svgAsImage.status, 415, 'SVG (scriptable) is not an accepted image');
  const pdfAsImage = await send(
    form(
      ['contract', { bytes: pdf, filename: 'c.pdf' }],
      ['signature', { bytes: pdf, filename: 'sig.png', type: 'image/png' }],
    ),
  );
  t.equal(pdfAsImage.status, 415);
  t.equal(await fileCount(), before + 1, 'only the accepted upload was saved: no partial files');

  for (const [name, bytes, mime] of [
    ['png', png, 'image/png'],
    ['jpeg', jpeg, 'image/jpeg'],
  ] as const) {
    const ok = await send(
      form(
        ['contract', { bytes: pdf, filename: 'c.pdf' }],
        ['signature', { bytes, filename: 'sig.bin', type: 'text/plain' }],
      ),
    );
    t.equal(ok.status, 201, `${name} accepted as image`);
    t.equal(ok.body.files.signature.mime, mime);
  }
});

t.test('size: 5,242,880 bytes pass, one more is 413 and nothing is saved', async (t) => {
  const exact = Buffer.concat([pdf, Buffer.alloc(multipartLimits.fileSize - pdf.length, 0x20)]);
  t.equal(exact.length, 5_242_880);
  const accepted = await send(
    form(['contract', { bytes: exact, filename: 'big.pdf', type: 'application/pdf' }]),
  );
  t.equal(accepted.status, 201);
  t.equal(accepted.body.files.contract.size, 5_242_880);

  const before = await fileCount();
  const tooLarge = await send(
    form([
      'contract',
      {
        bytes: Buffer.concat([exact, Buffer.from(' ')]),
        filename: 'big.pdf',
        type: 'application/pdf',
      },
    ]),
  );
  t.equal(tooLarge.status, 413);
  t.match(tooLarge.body, {
    statusCode: 413,
    message: 'File too large',
    errors: [{ path: 'contract', message: 'File too large' }],
  });
  t.equal(await fileCount(), before, 'a truncated file is never stored');
});

t.test('missing, empty, unknown and repeated files', async (t) => {
  const missing = await send(form(['data', '{}']));
  t.equal(missing.status, 400);
  t.match(missing.body, {
    statusCode: 400,
    message: 'A file is required',
    errors: [{ path: 'contract', message: 'A file is required' }],
  });

  const empty = await send(form(['contract', { bytes: Buffer.alloc(0), filename: '' }]));
  t.equal(empty.status, 400, 'an empty file input counts as no file');
  t.match(empty.body.errors, [{ path: 'contract', message: 'A file is required' }]);

  const emptyOptional = await send(
    form(
      ['contract', { bytes: pdf, filename: 'c.pdf' }],
      ['signature', { bytes: Buffer.alloc(0), filename: '' }],
    ),
  );
  t.equal(emptyOptional.status, 201);
  t.same(Object.keys(emptyOptional.body.files), ['contract']);

  const unknown = await send(
    form(
      ['contract', { bytes: pdf, filename: 'c.pdf' }],
      ['payload', { bytes: pdf, filename: 'x.pdf' }],
    ),
  );
  t.equal(unknown.status, 400);
  t.match(unknown.body.errors, [{ path: 'payload', message: 'Unexpected file' }]);

  const twice = await send(
    form(
      ['contract', { bytes: pdf, filename: 'a.pdf' }],
      ['contract', { bytes: pdf, filename: 'b.pdf' }],
    ),
  );
  t.equal(twice.status, 400);
  t.match(twice.body.errors, [{ path: 'contract' }]);
});

t.test('the data field must be JSON', async (t) => {
  const response = await send(
    form(['data', '{not json'], ['contract', { bytes: pdf, filename: 'c.pdf' }]),
  );
  t.equal(response.status, 400);
  t.match(response.body, {
    errors: [{ path: 'data', message: 'The data field must be valid JSON' }],
  });
});

t.test('limits on parts, files and fields answer 413', async (t) => {
  const manyParts = form(...Array.from({ length: 1_001 }, (_, i): Part => [`f${i}`, 'x']));
  t.equal((await send(manyParts)).status, 413, '1,001 parts');
  const sevenFiles = form(
    ...Array.from({ length: 7 }, (_, i): Part => [`file${i}`, { bytes: pdf, filename: 'x.pdf' }]),
  );
  t.equal((await send(sevenFiles, '/many')).status, 413, '7 files over a limit of 6');
  const sixFiles = form(
    ...Array.from({ length: 6 }, (_, i): Part => [`file${i}`, { bytes: pdf, filename: 'x.pdf' }]),
  );
  t.same((await send(sixFiles, '/many')).body, { count: 6 }, '6 files are fine');
  const bigField = await send(
    form(
      ['data', JSON.stringify({ x: 'y'.repeat(200 * 1024) })],
      ['contract', { bytes: pdf, filename: 'c.pdf' }],
    ),
  );
  t.equal(bigField.status, 413, 'a field over 100 KB');
});

t.test('a request that is not multipart is 415', async (t) => {
  const response = await app.inject({ method: 'POST', url: '/upload', payload: { contract: 'x' } });
  t.equal(response.statusCode, 415);
});

t.test('csv: UTF-8 text only', async (t) => {
  const csv = Buffer.from('pickupCity,dropoffCity\nChicago,Dallas\n');
  const ok = await send(
    form(['csv_loads_file', { bytes: csv, filename: 'loads.csv', type: 'text/csv' }]),
    '/csv',
  );
  t.same(ok.body, { mime: 'text/csv', size: csv.length });
  t.equal(
    (
      await send(
        form(['csv_loads_file', { bytes: exe, filename: 'loads.csv', type: 'text/csv' }]),
        '/csv',
      )
    ).status,
    415,
  );
  t.equal(
    (
      await send(
        form([
          'csv_loads_file',
          { bytes: Buffer.from([0x61, 0xff, 0xfe, 0x62]), filename: 'loads.csv' },
        ]),
        '/csv',
      )
    ).status,
    415,
  );
});

t.test('over a real socket, refused uploads answer and the connection stays usable', async (t) => {
  const server = Fastify();
  server.setErrorHandler(errorHandler);
  await server.register(multipart, { limits: multipartLimits });
  server.post('/upload', async (request) => {
    const { files } = await readMultipart(request, {
      files: { contract: { required: true, accept: 'pdf' } },
    });
    return { size: files.contract.size };
  });
  const address = await server.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => server.close());
  const big = Buffer.concat([pdf, Buffer.alloc(multipartLimits.fileSize, 0x20)]);
  const cases: [string, FormData, number][] = [
    [
      'too large, then another part',
      form(['contract', { bytes: big, filename: 'big.pdf' }], ['note', 'after']),
      413,
    ],
    [
      'unknown file first',
      form(
        ['other', { bytes: big, filename: 'x.pdf' }],
        ['contract', { bytes: pdf, filename: 'c.pdf' }],
      ),
      400,
    ],
    [
      'wrong type, then more',
      form(['contract', { bytes: exe, filename: 'x.pdf' }], ['note', 'after']),
      415,
    ],
    ['fine', form(['contract', { bytes: pdf, filename: 'c.pdf' }]), 200],
  ];
  for (const [name, body, status] of cases) {
    const response = await fetch(`${address}/upload`, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(10_000),
    });
    t.equal(response.status, status, name);
    await response.arrayBuffer();
  }
});

t.test('contentDisposition', async (t) => {
  t.equal(
    contentDisposition('rate confirmation.pdf'),
    `attachment; filename="rate confirmation.pdf"; filename*=UTF-8''rate%20confirmation.pdf`,
  );
  t.equal(
    contentDisposition('../../etc/passwd'),
    `attachment; filename="etcpasswd"; filename*=UTF-8''etcpasswd`,
  );
  const crlf = contentDisposition('a.pdf"\r\nSet-Cookie: session=stolen\r\n\r\n<html>');
  t.notMatch(crlf, /[\r\n]/);
  t.equal(crlf.split('"').length, 3, 'only the two quotes around the fallback name');
  t.equal(
    contentDisposition('C:\\Users\\x\\Frachtbrief-Ü.pdf'),
    `attachment; filename="C:UsersxFrachtbrief-_.pdf"; filename*=UTF-8''C%3AUsersxFrachtbrief-%C3%9C.pdf`,
  );
  t.equal(
    contentDisposition('invoice\u202Efdp.exe'),
    `attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`,
    'no right-to-left override',
  );
  t.equal(contentDisposition(''), `attachment; filename="download"; filename*=UTF-8''download`);
  t.equal(
    contentDisposition("it's (1) *.pdf"),
    `attachment; filename="it's (1) *.pdf"; filename*=UTF-8''it%27s%20%281%29%20%2A.pdf`,
  );

  const response = await app.inject({
    method: 'GET',
    url: `/download?name=${encodeURIComponent('../x\r\n.pdf')}`,
  });
  t.equal(response.statusCode, 200);
  t.equal(
    response.headers['content-disposition'],
    `attachment; filename="x.pdf"; filename*=UTF-8''x.pdf`,
  );
  t.equal(response.headers['x-content-type-options'], 'nosniff');
});
