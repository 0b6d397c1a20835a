/**
 * Files have an owner and a rule (server/integrations/files/fileAccess.ts): a load's signed contract
 * and rate confirmation for both parties' dispatchers and the Superadmin; an organization's
 * documents for its users who see its account (not its drivers) and the Superadmin; a tour's files
 * also for the driver assigned to it. Everyone else gets 404, as for an unknown file.
 */
import { sql } from 'kysely';
import t, { type Test } from 'tap';
import { Role } from '../../domain/catalog.ts';
import { backfillContractLoads } from '../../migrations/2026_11_25_1200_file_owners.ts';
import {
  bearer,
  member,
  multipart,
  organization,
  PDF,
  PNG,
  superadmin,
  type Member,
} from '../identity/fixtures.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'File Owner Foods' });
const shipperColleague = await member(app, platform, shipper.organizationId!, Role.Shipper);
const carrier = await organization(app, platform, 'Carrier', { name: 'File Owner Hauling' });
const carrierColleague = await member(app, platform, carrier.organizationId!, Role.Carrier);
const assignedDriver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Ada Assigned',
});
const otherDriver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Otto Other',
});
const strangerShipper = await organization(app, platform, 'Shipper');
const strangerCarrier = await organization(app, platform, 'Carrier');
const strangerDriver = await member(app, platform, strangerCarrier.organizationId!, Role.Driver);

async function must(
  user: Member,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
  form?: ReturnType<typeof multipart>,
) {
  const response = await app.inject({
    method,
    url,
    headers: { ...form?.headers, ...bearer(user.token) },
    ...(form ? { payload: form.payload } : payload === undefined ? {} : { payload }),
  });
  if (response.statusCode >= 300)
    throw new Error(`fixture ${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

// One shipment: posted, offered, accepted, the contract signed and uploaded, the tour given to Ada.
const { id: loadId } = await must(shipper, 'POST', '/api/loads', loadBody());
const { id: offerId } = await must(carrier, 'POST', `/api/proposal/${loadId}`, { price: 2100 });
await must(shipper, 'PUT', `/api/proposal/${offerId}`, { status: 5 });
const signedContract = Buffer.concat([PDF, Buffer.from('% signed by File Owner Hauling\n')]);
const { contractFileId } = await must(
  carrier,
  'POST',
  `/api/proposal/load/${loadId}`,
  undefined,
  multipart(
    { status: 14 },
    { contract: { content: signedContract, filename: 'signed.pdf', type: 'application/pdf' } },
  ),
);
const { tourId } = await must(shipper, 'GET', `/api/loads/${loadId}`);
await must(carrier, 'POST', `/api/tours/${tourId}/assign/${assignedDriver.userId}`);

const download = (user: Member | null, id: string) =>
  app.inject({ method: 'GET', url: `/api/files/${id}`, headers: user ? bearer(user.token) : {} });

type Case = [string, Member | null, number];
async function expectAnswers(t: Test, id: string, cases: Case[]) {
  for (const [who, user, status] of cases)
    t.equal((await download(user, id)).statusCode, status, `${who}: ${status}`);
}

t.test(
  "a load's signed contract: both parties' dispatchers and the Superadmin; no driver, no other organization",
  async (t) => {
    t.ok(contractFileId, 'the upload answers the stored contract');
    t.equal(
      (await must(shipper, 'GET', `/api/loads/${loadId}`)).contractFileId,
      contractFileId,
      'the shipper sees which file it is',
    );

    const opened = await download(shipper, contractFileId);
    t.equal(
      opened.statusCode,
      200,
      "the shipper opens its own load's contract (its 'Open' button)",
    );
    t.equal(opened.headers['content-type'], 'application/pdf');
    t.same(opened.rawPayload, signedContract, 'the very file the carrier uploaded');
    t.match(opened.headers['content-disposition'], /^attachment; filename="contract\.pdf"/);

    await expectAnswers(t, contractFileId, [
      ['another user of the shipper', shipperColleague, 200],
      ['the carrier dispatcher who uploaded it', carrier, 200],
      ["another of the carrier's dispatchers", carrierColleague, 200],
      ['the Superadmin', admin, 200],
      [
        "the carrier's driver assigned to the tour (the contract carries the price: the dispatchers' business)",
        assignedDriver,
        404,
      ],
      ['a driver of the carrier who is not on the tour', otherDriver, 404],
      ['another shipper', strangerShipper, 404],
      ['another carrier', strangerCarrier, 404],
      ["another carrier's driver", strangerDriver, 404],
      ['nobody signed in', null, 401],
    ]);
  },
);

t.test("the load's rate confirmation follows the same rule", async (t) => {
  const url = `/api/proposal/${offerId}/rate-confirmation`;
  const cases: Case[] = [
    ['the shipper', shipper, 200],
    ['the carrier', carrier, 200],
    ['the Superadmin', admin, 200],
    ['the assigned driver', assignedDriver, 403],
    ['another driver of the carrier', otherDriver, 403],
    ['another shipper', strangerShipper, 404],
    ['another carrier', strangerCarrier, 404],
  ];
  for (const [who, user, status] of cases) {
    const response = await app.inject({ method: 'GET', url, headers: bearer(user!.token) });
    t.equal(response.statusCode, status, `${who}: ${status}`);
    if (status === 200) t.equal(response.headers['content-type'], 'application/pdf');
  }
});

t.test(
  "carrier documents: the carrier's dispatchers and the Superadmin; not its drivers, not the shipper it works for",
  async (t) => {
    const saved = await must(
      carrier,
      'POST',
      '/api/users/carrier',
      undefined,
      multipart(
        {
          mcNumber: 424242,
          dotNumber: 535353,
          eldProvider: null,
          trucks: [],
          trailers: [],
          driverTeams: [],
        },
        {
          certificateOfInsurance: {
            content: PDF,
            filename: 'insurance.pdf',
            type: 'application/pdf',
          },
        },
      ),
    );
    const insurance = saved.documents.certificateOfInsurance as string;
    await expectAnswers(t, insurance, [
      ['the carrier dispatcher', carrier, 200],
      ["another of the carrier's dispatchers", carrierColleague, 200],
      ['the Superadmin', admin, 200],
      ["the carrier's assigned driver", assignedDriver, 404],
      ["the carrier's other driver", otherDriver, 404],
      ['the shipper of a load the carrier hauls', shipper, 404],
      ['another carrier', strangerCarrier, 404],
    ]);
  },
);

t.test("a shipper's signature: the shipper's users and the Superadmin", async (t) => {
  const { signatureFileId } = await must(
    shipper,
    'POST',
    '/api/users/shipper',
    undefined,
    multipart(
      { insuredAmount: 1 },
      { signature: { content: PNG, filename: 'sign.png', type: 'image/png' } },
    ),
  );
  await expectAnswers(t, signatureFileId, [
    ['the shipper', shipper, 200],
    ['another user of the shipper', shipperColleague, 200],
    ['the Superadmin', admin, 200],
    ['the carrier of its load', carrier, 404],
    ['the driver of its load', assignedDriver, 404],
    ['another shipper', strangerShipper, 404],
  ]);
});

t.test(
  "a tour's file (proof of delivery): the tour's parties, its assigned driver and the Superadmin",
  async (t) => {
    const store = createFileStore(platform.database.db);
    const photo = await store.save({
      organizationId: carrier.organizationId!,
      kind: 'photo',
      tourId,
      mime: 'image/png',
      data: PNG,
    });
    await expectAnswers(t, photo, [
      ['the driver assigned to the tour', assignedDriver, 200],
      ['the shipper', shipper, 200],
      ['the carrier', carrierColleague, 200],
      ['the Superadmin', admin, 200],
      ['a driver of the carrier who is not on the tour', otherDriver, 404],
      ['another carrier', strangerCarrier, 404],
      ["another carrier's driver", strangerDriver, 404],
    ]);
  },
);

t.test(
  'contracts stored before files had owners get their load back from the event log or the loads read model',
  async (t) => {
    const db = platform.database.db;
    const loadOf = async () =>
      (
        await sql<{
          load_id: string | null;
        }>`SELECT load_id FROM files WHERE id = ${contractFileId}`.execute(db)
      ).rows[0]?.load_id;
    t.equal(await loadOf(), loadId, 'an uploaded contract records its load');

    await sql`UPDATE files SET load_id = NULL WHERE id = ${contractFileId}`.execute(db);
    t.equal(
      (await download(shipper, contractFileId)).statusCode,
      404,
      "without its load, a contract is only its carrier's",
    );
    t.equal((await download(carrier, contractFileId)).statusCode, 200);
    await backfillContractLoads(db);
    t.equal(await loadOf(), loadId, 'filled again');
    t.equal(
      (await download(shipper, contractFileId)).statusCode,
      200,
      'and the shipper opens it again',
    );

    // The event log alone is enough (the read model may be rebuilding).
    await sql`UPDATE files SET load_id = NULL WHERE id = ${contractFileId}`.execute(db);
    await sql`UPDATE loads_view SET contract_file_id = NULL WHERE id = ${loadId}`.execute(db);
    await backfillContractLoads(db);
    await sql`UPDATE loads_view SET contract_file_id = ${contractFileId} WHERE id = ${loadId}`.execute(
      db,
    );
    t.equal(await loadOf(), loadId, 'from the LoadContractSigned event');
  },
);
