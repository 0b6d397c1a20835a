/**
 * Files have an owner and a rule (server/integrations/files/fileAccess.ts): a load's signed contract
 * and rate confirmation for both parties' dispatchers and the Superadmin; an organization's
 * documents for its users who see its account (not its drivers) and the Superadmin; a tour's files
 * also for the driver assigned to it. Everyone else gets 404, as for an unknown file.
 */
import { sql } from 'kysely';
import t, { type Test } from 'tap';
import { Role } from '../../domain/catalog.ts';
import { loadStream } from '../../domain/loads/load.types.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { backfillContractLoads } from '../../migrations/2026_11_25_1200_file_owners.ts';
import { member, organization, PDF, PNG, superadmin, type Member } from '../identity/fixtures.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
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

const as = requester(app);

// One shipment: posted, offered, accepted, the contract signed and uploaded, the tour given to Ada.
let loadId = '';
let offerId = '';
let tourId = '';
let contractFileId = '';
const signedContract = Buffer.concat([PDF, Buffer.from('% signed by File Owner Hauling\n')]);

t.test('the shipment whose files are read: its contract upload names the file', async (t) => {
  const events = await watchEvents(platform.store);
  const posted = await as(shipper).post('/api/loads', loadBody());
  t.equal(posted.status, 201);
  loadId = posted.body.id;
  const offered = await as(carrier).post(`/api/proposal/${loadId}`, { price: 2100 });
  t.equal(offered.status, 201);
  offerId = offered.body.id;
  t.equal((await as(shipper).put(`/api/proposal/${offerId}`, { status: 5 })).status, 200);
  tourId = (await as(shipper).get(`/api/loads/${loadId}`)).body.tourId;
  await events.expect(t, [
    { type: 'LoadPosted', stream: loadStream(loadId) },
    'ProposalSubmitted',
    'ProposalListed',
    'LoadProposalAccepted',
    'ProposalAccepted',
    { type: 'TourOpened', stream: tourStream(tourId), data: { loadId, proposalId: offerId } },
  ]);

  const uploaded = await as(carrier).upload(`/api/proposal/load/${loadId}`, {
    data: { status: 14 },
    files: {
      contract: { content: signedContract, filename: 'signed.pdf', type: 'application/pdf' },
    },
  });
  t.equal(uploaded.status, 200, uploaded.text);
  contractFileId = uploaded.body.contractFileId;
  t.ok(contractFileId, 'the upload answers the stored contract');
  await events.expect(t, [
    { type: 'ContractUploaded', stream: offerStream(offerId), data: { loadId, contractFileId } },
    {
      type: 'LoadContractSigned',
      stream: loadStream(loadId),
      data: { proposalId: offerId, contractFileId },
    },
    { type: 'CarrierConfirmed', stream: tourStream(tourId), data: { tourId, contractFileId } },
  ]);

  t.equal(
    (await as(carrier).post(`/api/tours/${tourId}/assign/${assignedDriver.userId}`)).status,
    200,
  );
  await events.expect(t, [
    {
      type: 'TourAssigned',
      stream: tourStream(tourId),
      data: { assigneeId: assignedDriver.userId },
    },
    'TourStatusChanged',
    'TourEventAdded',
  ]);
});

type Case = [string, Member | null, number];
async function expectAnswers(t: Test, id: string, cases: Case[]) {
  for (const [who, user, status] of cases)
    t.equal((await as(user).get(`/api/files/${id}`)).status, status, `${who}: ${status}`);
}

t.test(
  "a load's signed contract: both parties' dispatchers and the Superadmin; no driver, no other organization",
  async (t) => {
    t.equal(
      (await as(shipper).get(`/api/loads/${loadId}`)).body.contractFileId,
      contractFileId,
      'the shipper sees which file it is',
    );

    const opened = await as(shipper).get(`/api/files/${contractFileId}`);
    t.equal(opened.status, 200, "the shipper opens its own load's contract (its 'Open' button)");
    t.equal(opened.headers['content-type'], 'application/pdf');
    t.same(opened.raw, signedContract, 'the very file the carrier uploaded');
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
    const response = await as(user).get(url);
    t.equal(response.status, status, `${who}: ${status}`);
    if (status === 200) t.equal(response.headers['content-type'], 'application/pdf');
  }
});

t.test(
  "carrier documents: the carrier's dispatchers and the Superadmin; not its drivers, not the shipper it works for",
  async (t) => {
    const events = await watchEvents(platform.store);
    const saved = await as(carrier).upload('/api/users/carrier', {
      data: {
        mcNumber: 424242,
        dotNumber: 535353,
        eldProvider: null,
        trucks: [],
        trailers: [],
        driverTeams: [],
      },
      files: {
        certificateOfInsurance: {
          content: PDF,
          filename: 'insurance.pdf',
          type: 'application/pdf',
        },
      },
    });
    t.equal(saved.status, 200, saved.text);
    const insurance = saved.body.documents.certificateOfInsurance as string;
    await events.expect(t, [
      {
        type: 'CarrierProfileChanged',
        stream: organizationStream(carrier.organizationId!),
        data: {
          organizationId: carrier.organizationId,
          profile: { mcNumber: 424242, documents: { certificateOfInsurance: insurance } },
        },
      },
    ]);
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
  const events = await watchEvents(platform.store);
  const saved = await as(shipper).upload('/api/users/shipper', {
    data: { insuredAmount: 1 },
    files: { signature: { content: PNG, filename: 'sign.png', type: 'image/png' } },
  });
  t.equal(saved.status, 200, saved.text);
  const { signatureFileId } = saved.body;
  await events.expect(t, [
    {
      type: 'ShipperProfileChanged',
      stream: organizationStream(shipper.organizationId!),
      data: { organizationId: shipper.organizationId, profile: { signatureFileId } },
    },
  ]);
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
    // Stored as the proof-of-delivery upload stores its photos (that route's events: pod.routes.spec.ts).
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
      (await as(shipper).get(`/api/files/${contractFileId}`)).status,
      404,
      "without its load, a contract is only its carrier's",
    );
    t.equal((await as(carrier).get(`/api/files/${contractFileId}`)).status, 200);
    await backfillContractLoads(db);
    t.equal(await loadOf(), loadId, 'filled again');
    t.equal(
      (await as(shipper).get(`/api/files/${contractFileId}`)).status,
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
