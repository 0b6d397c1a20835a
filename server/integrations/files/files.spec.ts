// @postgres: files stored in the database
import t from 'tap';
import { createHash, randomUUID } from 'node:crypto';
import { openAuthTestDatabase } from '../../auth/testing.ts';
import { createFileStore } from './files.ts';

const database = await openAuthTestDatabase();
t.teardown(() => database.drop());
const store = createFileStore(database.db);
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

t.test('save and get round-trip the bytes and their metadata', async (t) => {
  const organizationId = randomUUID();
  const id = await store.save({
    organizationId,
    kind: 'mcAuthority',
    mime: 'application/pdf',
    data: pdf,
  });
  t.match(id, /^[0-9a-f-]{36}$/);
  const file = await store.get(id);
  t.ok(file);
  t.ok(Buffer.isBuffer(file!.data), 'a Buffer on every driver');
  t.ok(file!.data.equals(pdf), 'same bytes');
  t.match(file, {
    id,
    organizationId,
    kind: 'mcAuthority',
    mime: 'application/pdf',
    size: pdf.length,
  });
  t.equal(file!.sha256, createHash('sha256').update(pdf).digest('hex'));
  t.ok(file!.createdAt instanceof Date);
  const meta = await store.getMeta(id);
  t.same(meta, {
    id,
    organizationId,
    kind: 'mcAuthority',
    loadId: null,
    tourId: null,
    mime: 'application/pdf',
    size: pdf.length,
    sha256: file!.sha256,
    createdAt: file!.createdAt,
  });
});

t.test('a file records the load or tour it belongs to', async (t) => {
  const loadId = randomUUID();
  const tourId = randomUUID();
  const contract = await store.save({
    organizationId: randomUUID(),
    kind: 'contract',
    loadId,
    mime: 'application/pdf',
    data: pdf,
  });
  t.match(await store.getMeta(contract), { kind: 'contract', loadId, tourId: null });
  const [photo] = await store.saveAll([
    {
      organizationId: randomUUID(),
      kind: 'proofOfDelivery',
      tourId,
      mime: 'application/pdf',
      data: pdf,
    },
  ]);
  t.match(await store.get(photo!), { loadId: null, tourId });
  await t.rejects(
    store.save({
      organizationId: randomUUID(),
      kind: 'contract',
      loadId: 'not-a-load',
      mime: 'application/pdf',
      data: pdf,
    }),
    /UUID/,
  );
});

t.test('binary data survives intact', async (t) => {
  const data = Buffer.alloc(256 * 1024);
  for (let i = 0; i < data.length; i += 1) data[i] = (i * 7919) & 255;
  const id = await store.save({
    organizationId: randomUUID(),
    kind: 'signature',
    mime: 'image/png',
    data,
  });
  t.ok((await store.get(id))!.data.equals(data));
});

t.test('unknown and malformed ids answer null, not an error', async (t) => {
  t.equal(await store.get(randomUUID()), null);
  t.equal(await store.get('../../etc/passwd'), null);
  t.equal(await store.get("1' OR '1'='1"), null);
  t.equal(await store.getMeta('nope'), null);
  t.equal(await store.delete('nope'), false);
});

t.test('saveAll is all or nothing; delete removes', async (t) => {
  const organizationId = randomUUID();
  const ids = await store.saveAll([
    { organizationId, kind: 'w9Form', mime: 'application/pdf', data: pdf },
    { organizationId, kind: 'certificateOfInsurance', mime: 'application/pdf', data: pdf },
  ]);
  t.equal(ids.length, 2);
  const count = async () =>
    Number(
      (
        await database.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  t.equal(await count(), 2);
  await t.rejects(
    store.saveAll([
      { organizationId, kind: 'w9Form', mime: 'application/pdf', data: pdf },
      { organizationId: 'not-a-uuid', kind: 'w9Form', mime: 'application/pdf', data: pdf },
    ]),
  );
  t.equal(await count(), 2, 'nothing of the failed batch was written');
  t.equal(await store.delete(ids[0]), true);
  t.equal(await store.get(ids[0]), null);
});

t.test('inside a transaction the file rolls back with the rest', async (t) => {
  const organizationId = randomUUID();
  let id = '';
  await t.rejects(
    database.db.transaction().execute(async (trx) => {
      id = await createFileStore(trx).save({
        organizationId,
        kind: 'contract',
        mime: 'application/pdf',
        data: pdf,
      });
      throw new Error('the command failed after the upload');
    }),
  );
  t.equal(await store.get(id), null, 'no orphan file');
});
