// @postgres: the FMCSA import replaces the table in one transaction while the file streams in
/**
 * Carrier authority through HTTP: the Superadmin's FMCSA import (replaces, a bad file changes
 * nothing), a carrier's authority to the Superadmin and to itself (404 to others), the check at
 * registration, QCMobile against a local server speaking its JSON, and the daily check recording a
 * change, e-mailing the carrier's managers and the Superadmin and sending the webhook.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { member, multipart, organization, PDF, superadmin } from '../identity/fixtures.ts';
import { DEMO_AUTHORITY_FILE } from '../integrations/fmcsa/demoAuthority.ts';
import { waitUntil } from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';
import { defaultWebhookSettings } from '../webhooks/settings.ts';

const { app, platform, close } = await startTestApp({
  webhooks: { ...defaultWebhookSettings(true), firstDelayMs: 40, maxDelayMs: 150, pollMs: 30 },
});
t.teardown(close);
const as = requester(app);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper');
const otherCarrier = await organization(app, platform, 'Carrier');
const demoFile = readFileSync(DEMO_AUTHORITY_FILE);
const csv = (text: string) => ({
  files: { file: { content: Buffer.from(text), type: 'text/csv' } },
});
const importFile = (sender: string, content: Buffer | string) =>
  as(sender).upload('/api/admin/fmcsa/import', {
    files: { file: { content: Buffer.from(content), filename: 'carriers.csv', type: 'text/csv' } },
  });
const tableRows = () =>
  platform.database.db
    .selectFrom('carrier_authority')
    .select(['dot_number', 'status', 'insurance_on_file'])
    .orderBy('dot_number')
    .execute();

/** The Superadmin creates an Active carrier with DOT and MC numbers (POST users/organization). */
async function createCarrier(
  on: { app: typeof app },
  token: string,
  name: string,
  dotNumber: number,
  mcNumber: number,
): Promise<string> {
  const form = multipart(
    {
      type: 'Carrier',
      name,
      organizationContactInfo: {
        address: '9 Dock Rd, Newark, NJ',
        person: 'Chris',
        email: 'office@fleet.example.com',
        phone: '555-555-0177',
      },
      mcNumber,
      dotNumber: String(dotNumber),
      trucks: [{ type: 1, count: 2 }],
    },
    {
      mcAuthority: { content: PDF },
      certificateOfInsurance: { content: PDF },
      w9Form: { content: PDF },
    },
  );
  const created = await on.app.inject({
    method: 'POST',
    url: '/api/users/organization',
    headers: { ...form.headers, authorization: `Bearer ${token}` },
    payload: form.payload,
  });
  if (created.statusCode !== 201) throw new Error(`carrier: ${created.statusCode} ${created.body}`);
  return created.json().id as string;
}

t.test('the import replaces the table; a bad file answers 400 and changes nothing', async (t) => {
  const first = await importFile(admin.token, demoFile);
  t.equal(first.status, 202);
  t.same(first.body, { rows: 6 });
  t.same(
    (await tableRows()).map((row) => [Number(row.dot_number), row.status, row.insurance_on_file]),
    [
      [2345671, 'active', true],
      [2456782, 'active', true],
      [2567893, 'active', true],
      [2678904, 'active', true],
      [2789015, 'inactive', false],
      [2890126, 'revoked', false],
    ],
  );

  const census = [
    'DOT_NUMBER,LEGAL_NAME,DBA_NAME,DOCKET1PREFIX,DOCKET1,STATUS_CODE,PHY_STATE',
    '1000001,ACME TRUCKING,,MC,500001,A,TX',
    '1000002,BETA LINES,,FF,500002,I,OH',
  ].join('\n');
  const replaced = await importFile(admin.token, census);
  t.equal(replaced.status, 202);
  t.same(replaced.body, { rows: 2 });
  const rows = await platform.database.db
    .selectFrom('carrier_authority')
    .selectAll()
    .orderBy('dot_number')
    .execute();
  t.same(
    rows.map((row) => [
      Number(row.dot_number),
      row.mc_number && Number(row.mc_number),
      row.legal_name,
      row.status,
    ]),
    [
      [1000001, 500001, 'ACME TRUCKING', 'active'],
      [1000002, null, 'BETA LINES', 'inactive'],
    ],
    'the census file replaced every row of the authority file',
  );

  for (const [content, message] of [
    ['NAME,STATUS\nACME,A\n', 'The file has no DOT_NUMBER column'],
    [
      'DOT_NUMBER,LEGAL_NAME,STATUS_CODE\n1000003,GOOD,A\nabc,BAD,A\n',
      'Line 3: DOT_NUMBER is not a number',
    ],
    ['DOT_NUMBER,LEGAL_NAME,STATUS_CODE\n1000003,GOOD,X\n', 'Line 2: STATUS_CODE must be A or I'],
    ['DOT_NUMBER,LEGAL_NAME,STATUS_CODE\n', 'The file has no rows'],
    [
      `DOT_NUMBER,LEGAL_NAME,STATUS_CODE\n${Array.from({ length: 1200 }, (_, i) => `${2000000 + i},CARRIER ${i},A`).join('\n')}\nx,LAST,A\n`,
      'Line 1202: DOT_NUMBER is not a number',
    ],
    ['DOT_NUMBER,LEGAL_NAME,STATUS_CODE\n1000003,"unclosed,A\n', undefined],
  ] as const) {
    const bad = await importFile(admin.token, content);
    t.equal(bad.status, 400, `400: ${message ?? 'a broken quote'}`);
    if (message) t.equal(bad.body.message, message);
    else t.match(bad.body.message, /^The file is not a readable CSV/);
    t.equal(bad.body.errors[0].path, 'file');
  }
  t.equal((await tableRows()).length, 2, 'the bad files changed nothing');

  const noFile = await as(admin.token).upload('/api/admin/fmcsa/import', {});
  t.equal(noFile.status, 400);
  t.equal(noFile.body.message, 'A file is required');
  const carrierUser = await member(app, platform, otherCarrier.organizationId!, Role.Carrier);
  t.equal((await importFile(carrierUser.token, demoFile)).status, 403);
  t.equal((await as(null).upload('/api/admin/fmcsa/import', csv(census))).status, 401);
  t.equal((await tableRows()).length, 2, 'refused imports changed nothing');

  t.equal((await importFile(admin.token, demoFile)).status, 202, 'the demo file back');
});

let carrierId = '';
let manager = { token: '', email: '' };

t.test(
  'a carrier is checked at registration; its authority to the Superadmin and itself, 404 to others',
  async (t) => {
    const events = await watchEvents(platform.store);
    carrierId = await createCarrier(
      { app },
      admin.token,
      'Blue Ridge Freight LLC',
      2345671,
      712345,
    );
    const [, checked] = await events.expect(t, [
      {
        type: 'OrganizationRegistered',
        stream: organizationStream(carrierId),
        data: { organizationId: carrierId, type: 'Carrier' },
      },
      {
        type: 'CarrierAuthorityChecked',
        stream: organizationStream(carrierId),
        data: {
          organizationId: carrierId,
          dotNumber: 2345671,
          mcNumber: 712345,
          status: 'active',
          insuranceOnFile: true,
          source: 'import',
        },
      },
    ]);

    const asAdmin = await as(admin.token).get(`/api/organizations/${carrierId}/authority`);
    t.equal(asAdmin.status, 200);
    t.same(asAdmin.body, {
      dotNumber: 2345671,
      mcNumber: 712345,
      status: 'active',
      insuranceOnFile: true,
      checkedAt: checked?.data.checkedAt,
      source: 'import',
    });
    const own = await member(app, platform, carrierId, Role.Carrier, { name: 'Dee Dispatch' });
    manager = own;
    const asItself = await as(own.token).get(`/api/organizations/${carrierId}/authority`);
    t.equal(asItself.status, 200);
    t.same(asItself.body, asAdmin.body);

    const stranger = await member(app, platform, otherCarrier.organizationId!, Role.Carrier);
    t.equal(
      (await as(stranger.token).get(`/api/organizations/${carrierId}/authority`)).status,
      404,
    );
    t.equal((await as(shipper.token).get(`/api/organizations/${carrierId}/authority`)).status, 404);
    t.equal(
      (await as(shipper.token).get(`/api/organizations/${shipper.organizationId}/authority`))
        .status,
      404,
      'a shipper has no authority',
    );
    t.equal((await as(null).get(`/api/organizations/${carrierId}/authority`)).status, 401);

    const unknownId = await createCarrier({ app }, admin.token, 'Nowhere Lines', 9999991, 999991);
    const unknown = await as(admin.token).get(`/api/organizations/${unknownId}/authority`);
    t.match(unknown.body, { dotNumber: 9999991, status: 'unknown', insuranceOnFile: false });
  },
);

t.test(
  'the daily check records a change, e-mails the managers and the Superadmin, sends the webhook',
  async (t) => {
    const hooks: { type: string; data: any }[] = [];
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        hooks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await as(manager.token).post('/api/webhooks', {
      url,
      events: ['carrier.authority_changed'],
      description: 'compliance',
    });
    t.equal(hook.status, 201);

    const events = await watchEvents(platform.store);
    const sweep = platform.authorityCheck!;
    t.equal(
      await sweep.sweep(new Date(Date.now() + 60_000).toISOString()),
      0,
      'checked today: nothing',
    );
    await events.expect(t, []);

    const tomorrow = new Date(Date.now() + 25 * 3600_000).toISOString();
    const dayAfter = new Date(Date.now() + 50 * 3600_000).toISOString();
    t.equal(await sweep.sweep(tomorrow), 0, 'a day later, unchanged: nothing recorded');
    await events.expect(t, []);

    const revoked = demoFile
      .toString('utf8')
      .replace(
        'MC712345,2345671,BLUE RIDGE FREIGHT LLC,,A,A,N,750,1000,0,',
        'MC712345,2345671,BLUE RIDGE FREIGHT LLC,,I,I,N,750,0,0,REVOKED',
      );
    t.equal((await importFile(admin.token, revoked)).status, 202);
    const laterThatDay = new Date(Date.now() + 30 * 3600_000).toISOString();
    t.equal(
      await sweep.sweep(laterThatDay),
      0,
      'asked once a day: the change waits for the next day',
    );
    await events.expect(t, []);
    const before = (await platform.mailer.listOutbox(100)).length;
    t.equal(await sweep.sweep(dayAfter), 1, 'one change');
    await events.expect(t, [
      {
        type: 'CarrierAuthorityChanged',
        stream: organizationStream(carrierId),
        data: {
          organizationId: carrierId,
          dotNumber: 2345671,
          mcNumber: 712345,
          status: 'revoked',
          insuranceOnFile: false,
          source: 'import',
          checkedAt: dayAfter,
          previous: { status: 'active', insuranceOnFile: true },
        },
      },
    ]);
    const after = await platform.mailer.listOutbox(100);
    const mails = after.slice(0, after.length - before);
    const recipients = mails.map((mail) => mail.to).sort();
    t.same(recipients, [admin.email, manager.email].sort(), 'the manager and the Superadmin');
    t.match(mails[0]?.subject, 'Operating authority changed: Blue Ridge Freight LLC (DOT 2345671)');
    t.match(mails[0]?.text, 'now: authority revoked, insurance not on file');

    await waitUntil(() => hooks.length > 0, 10_000, 'the webhook');
    t.equal(hooks[0]?.type, 'carrier.authority_changed');
    t.match(hooks[0]?.data, {
      organizationId: carrierId,
      status: 'revoked',
      insuranceOnFile: false,
      previous: { status: 'active', insuranceOnFile: true },
    });
    const now = await as(manager.token).get(`/api/organizations/${carrierId}/authority`);
    t.match(now.body, { status: 'revoked', insuranceOnFile: false, checkedAt: dayAfter });
    t.equal(await sweep.sweep(dayAfter), 0, 'checked: not again the same day');
    await events.expect(t, []);
  },
);

t.test('with FMCSA_WEBKEY, QCMobile is asked (a local server answering as it does)', async (t) => {
  const asked: string[] = [];
  const qcmobile = http.createServer((request, response) => {
    asked.push(request.url ?? '');
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.searchParams.get('webKey') !== 'test-key') {
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"content":"Webkey not found"}');
      return;
    }
    const docket = /^\/qc\/services\/carriers\/(\d+)\/docket-numbers$/.exec(url.pathname);
    const carrier = /^\/qc\/services\/carriers\/(\d+)$/.exec(url.pathname);
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (docket)
      return json({
        content: [{ docketNumber: 811111, prefix: 'MC', dotNumber: Number(docket[1]) }],
      });
    if (carrier?.[1] === '3111111')
      return json({
        content: {
          carrier: {
            dotNumber: 3111111,
            legalName: 'QC HAULERS',
            allowedToOperate: 'Y',
            statusCode: 'A',
            commonAuthorityStatus: 'A',
            contractAuthorityStatus: 'N',
            bipdInsuranceOnFile: '1000',
            bipdInsuranceRequired: 'Y',
          },
        },
      });
    if (carrier?.[1] === '3222222')
      return json({
        content: {
          carrier: {
            dotNumber: 3222222,
            allowedToOperate: 'N',
            statusCode: 'A',
            commonAuthorityStatus: 'I',
            contractAuthorityStatus: 'I',
            bipdInsuranceOnFile: '0',
          },
        },
      });
    if (carrier?.[1] === '2345671') {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    return json({ content: null });
  });
  await new Promise<void>((resolve) => qcmobile.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => qcmobile.close(() => resolve())));
  const base = `http://127.0.0.1:${(qcmobile.address() as AddressInfo).port}/qc/services`;
  const online = await startTestApp({ fmcsaWebKey: 'test-key', fmcsaBaseUrl: base });
  t.teardown(online.close);
  const onlineAdmin = await superadmin(online.app, online.platform);
  const events = await watchEvents(online.platform.store);

  const active = await createCarrier(online, onlineAdmin.token, 'QC Haulers', 3111111, 700001);
  await events.expect(t, [
    { type: 'OrganizationRegistered', stream: organizationStream(active) },
    {
      type: 'CarrierAuthorityChecked',
      stream: organizationStream(active),
      data: {
        organizationId: active,
        dotNumber: 3111111,
        mcNumber: 811111,
        status: 'active',
        insuranceOnFile: true,
        source: 'qcmobile',
      },
    },
  ]);
  t.ok(asked.includes('/qc/services/carriers/3111111?webKey=test-key'), 'asked with the WebKey');
  const answer = await requester(online.app)(onlineAdmin.token).get(
    `/api/organizations/${active}/authority`,
  );
  t.match(answer.body, { status: 'active', source: 'qcmobile', mcNumber: 811111 });

  const revoked = await createCarrier(online, onlineAdmin.token, 'Gone Lines', 3222222, 700002);
  await events.expect(t, [
    'OrganizationRegistered',
    {
      type: 'CarrierAuthorityChecked',
      data: {
        organizationId: revoked,
        status: 'revoked',
        insuranceOnFile: false,
        source: 'qcmobile',
      },
    },
  ]);
  const unknown = await createCarrier(online, onlineAdmin.token, 'Ghost Freight', 3333333, 700003);
  await events.expect(t, [
    'OrganizationRegistered',
    {
      type: 'CarrierAuthorityChecked',
      data: { organizationId: unknown, status: 'unknown', source: 'qcmobile' },
    },
  ]);

  const imported = await requester(online.app)(onlineAdmin.token).upload(
    '/api/admin/fmcsa/import',
    { files: { file: { content: demoFile, filename: 'carriers.csv', type: 'text/csv' } } },
  );
  t.equal(imported.status, 202);
  const fallback = await createCarrier(
    online,
    onlineAdmin.token,
    'Blue Ridge Too',
    2345671,
    712345,
  );
  await events.expect(
    t,
    [
      'OrganizationRegistered',
      {
        type: 'CarrierAuthorityChecked',
        data: {
          organizationId: fallback,
          status: 'active',
          insuranceOnFile: true,
          source: 'import',
        },
      },
    ],
    { message: 'QCMobile failing: the imported file answers' },
  );
});
