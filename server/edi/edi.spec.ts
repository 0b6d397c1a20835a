// @postgres: the delivery queue, the control numbers taken in transactions and the reactor writing with its checkpoint
/**
 * EDI over HTTP on a real server and a real receiver: public sample 204s (test/fixtures/edi, their
 * sources in its README) imported as loads; a malformed interchange, a wrong partner id, a bad
 * control count and a bad date each answered by a 997 naming the error, with no load posted; a
 * failing set rejected alone; change and cancel of a tender; and a shipment from tender to invoice,
 * every document we send parsed back by node-x12 and read segment by segment.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import t from 'tap';
import { GenericStatus, Role, TourStatus } from '../../domain/catalog.ts';
import { invoiceStream } from '../../domain/invoices/invoice.types.ts';
import type { LoadPosted } from '../../domain/loads/load.types.ts';
import { member, organization } from '../identity/fixtures.ts';
import { callerFor } from '../testing/callers.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';
import { waitUntil } from '../realtime/testing.ts';
import { defaultWebhookSettings } from '../webhooks/settings.ts';
import { signWebhook } from '../webhooks/signature.ts';
import { parseStrict } from './x12.ts';

const OUR_ID = 'FREIGHTMKT';
const fixture = (name: string) =>
  readFileSync(path.resolve(import.meta.dirname, '../../test/fixtures/edi', name), 'utf8');

/** A receiver of deliveries on a loopback port: keeps each request it answers 200 (the first `failing` get a 503). */
type Received = { headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
let failing = 0;
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (failing > 0) {
      failing--;
      response.writeHead(503).end('busy');
      return;
    }
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/edi`;

const { app, platform, close } = await startTestApp({
  webhooks: { ...defaultWebhookSettings(true), pollMs: 30, firstDelayMs: 40, maxDelayMs: 200 },
  ediIsaId: OUR_ID,
});
t.teardown(close);
const steps = shipmentSteps(platform);

const shipper = await organization(app, platform, 'Shipper');
const otherShipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);

const call = async (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const response = await app.inject({
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(body === undefined
      ? {}
      : typeof body === 'string'
        ? { payload: body }
        : { payload: body as object }),
  });
  let json: any = null;
  try {
    json = response.json();
  } catch {
    json = null;
  }
  return { status: response.statusCode, json, text: response.body, headers: response.headers };
};

const createPartner = async (body: Record<string, unknown>, token = shipper.token) =>
  call('POST', '/api/edi/partners', token, body);
const send = (apiKey: string, text: string, contentType = 'application/edi-x12') =>
  call('POST', '/api/edi/inbound', apiKey, text, { 'content-type': contentType });
const mailbox = async (apiKey: string) => (await call('GET', '/api/edi/mailbox', apiKey)).json;

/** The segments of one interchange we wrote, as `TAG*el*el` lines, after node-x12's strict parse. */
const segmentsOf = (raw: string): string[] => {
  const interchange = parseStrict(raw);
  const lines = [interchange.header.toString().replace(/~$/, '')];
  for (const group of interchange.functionalGroups) {
    lines.push(group.header.toString().replace(/~$/, ''));
    for (const set of group.transactions) {
      lines.push(set.header.toString().replace(/~$/, ''));
      for (const segment of set.segments) lines.push(segment.toString().replace(/~$/, ''));
      lines.push(set.trailer.toString().replace(/~$/, ''));
    }
    lines.push(group.trailer.toString().replace(/~$/, ''));
  }
  lines.push(interchange.trailer.toString().replace(/~$/, ''));
  return lines;
};
const setOf = (raw: string) => segmentsOf(raw).filter((line) => !/^(ISA|GS|GE|IEA)\*/.test(line));

const loadPosted = async (loadId: string) => {
  const { events } = await platform.store.readStream<LoadPosted>(`load-${loadId}`);
  return events.find((event) => event.type === 'LoadPosted')!.data;
};
const loadCountOf = async (organizationId: string) => {
  const { rows } = await platform.database.db
    .selectFrom('edi_tenders')
    .innerJoin('edi_partners', 'edi_partners.id', 'edi_tenders.partner_id')
    .select('edi_tenders.load_id')
    .where('edi_partners.organization_id', '=', organizationId)
    .execute()
    .then((found) => ({ rows: found }));
  return rows.length;
};
const postedLoads = async () =>
  (await platform.store.readAll({ limit: 100_000 })).filter((event) => event.type === 'LoadPosted')
    .length;

/** A date some days ahead, as CCYYMMDD. */
const ahead = (days: number) => DateTime.utc().plus({ days }).toFormat('yyyyLLdd');
const at = (date: string, time: string, zone: string) =>
  DateTime.fromFormat(`${date} ${time}`, 'yyyyLLdd HHmm', { zone }).toUTC().toISO();

const qivori = await createPartner({
  name: 'Qivori broker',
  isaQualifier: 'ZZ',
  isaId: 'BROKERTEST',
  gsId: 'BROKERTEST',
  deliver: { mailbox: true },
});
const lexParse = await createPartner({
  name: 'Shipper TMS',
  isaQualifier: 'zz',
  isaId: 'SHIPPER',
  gsId: 'SHIPPER',
  separators: { element: '*', segment: '~', subElement: '-' },
  deliver: { mailbox: true },
});

t.test('partners: a shipper manager registers them; the key is shown once and works', async (t) => {
  t.equal(qivori.status, 201);
  t.match(qivori.json, { id: String, apiKey: /^edi_/, signingSecret: null });
  const list = await call('GET', '/api/edi/partners', shipper.token);
  t.equal(list.status, 200);
  t.same(
    list.json.map((partner: any) => [partner.name, partner.isaQualifier, partner.deliver]),
    [
      ['Qivori broker', 'ZZ', { mailbox: true }],
      ['Shipper TMS', 'ZZ', { mailbox: true }],
    ],
  );
  t.notOk(JSON.stringify(list.json).includes(qivori.json.apiKey), 'the key is never listed');
  t.same((await call('GET', '/api/edi/partners', otherShipper.token)).json, []);
  t.equal((await call('GET', '/api/edi/partners', carrier.token)).status, 403);

  const bad = await createPartner({
    name: 'X',
    isaQualifier: 'ZZZ',
    isaId: 'A',
    gsId: 'AB',
    deliver: { mailbox: true },
  });
  t.equal(bad.status, 400);
  t.match(bad.json.errors, [{ path: 'isaQualifier' }]);
  const sameSeparators = await createPartner({
    name: 'X',
    isaQualifier: 'ZZ',
    isaId: 'A',
    gsId: 'AB',
    separators: { element: '*', segment: '*', subElement: '>' },
    deliver: { mailbox: true },
  });
  t.equal(sameSeparators.status, 400, 'separators must differ');
  const publicHttp = await createPartner({
    name: 'X',
    isaQualifier: 'ZZ',
    isaId: 'A',
    gsId: 'AB',
    deliver: { url: 'ftp://example.com/x' },
  });
  t.equal(publicHttp.status, 400);
  t.match(publicHttp.json.errors, [{ path: 'deliver.url' }]);

  t.equal((await send('edi_not-a-key', 'ISA')).status, 401, 'an unknown key is 401');
  t.equal((await call('GET', '/api/edi/mailbox', null)).status, 401);
});

t.test(
  'a public sample 204 (Qivori SAMPLE_204) becomes the expected load, and a 997 accepts it',
  async (t) => {
    const pickupDay = ahead(10);
    const deliveryDay = ahead(12);
    // Moved into the future and addressed to us; the rest as published.
    const text = fixture('qivori-204.edi')
      .replaceAll('20260330', pickupDay)
      .replaceAll('20260401', deliveryDay)
      .replace('*ZZ*QIVORI         *', `*ZZ*${OUR_ID.padEnd(15)}*`)
      .replace('GS*SM*BROKERTEST*QIVORI*', `GS*SM*BROKERTEST*${OUR_ID}*`);
    const answer = await send(qivori.json.apiKey, text);
    t.equal(answer.status, 202);
    t.match(answer.json, {
      interchangeControlNumber: '000000001',
      transactions: [{ setControlNumber: '0001', type: '204', result: 'accepted', loadId: String }],
    });
    const loadId = answer.json.transactions[0].loadId;
    const posted = await loadPosted(loadId);
    t.equal(posted.shipperOrganizationId, shipper.organizationId);
    t.match(posted.details, {
      refNumber: 'REF-2026-0328-001',
      weight: 42000,
      commodity: 'General freight',
      equipment: [1],
      pickupStart: at(pickupDay, '0800', 'America/Chicago'),
      pickupTimezone: 'America/Chicago',
      dropoffStart: at(deliveryDay, '1400', 'America/Chicago'),
      dropoffTimezone: 'America/Chicago',
      expiration: at(pickupDay, '0800', 'America/Chicago'),
    });
    t.match(posted.details.description, /Driver must check in at gate\. No lumper needed\./);
    t.match(posted.details.description, /BM BOL-8847231, PO PO-55012, SI REF-2026-0328-001/);
    t.same(
      posted.details.stops.map((stop) => [stop.locationType, stop.name, stop.city, stop.state]),
      [
        [1, 'ABC Manufacturing Co', 'Chicago', 'IL'],
        [4, 'XYZ Distribution Center', 'Dallas', 'TX'],
      ],
      'the bill-to party after the last stop is no stop',
    );
    const detail = await call('GET', `/api/loads/${loadId}`, shipper.token);
    t.equal(detail.status, 200, 'the shipper sees the load on its screens');
    t.equal(detail.json.refNumber, 'REF-2026-0328-001');

    const [ack] = await mailbox(qivori.json.apiKey);
    t.equal(ack.type, '997');
    t.same(setOf(ack.raw), [
      'ST*997*0001',
      'AK1*SM*000000001',
      'AK2*204*0001',
      'AK5*A',
      'AK9*A*1*1*1',
      'SE*6*0001',
    ]);
    t.match(
      segmentsOf(ack.raw)[0],
      new RegExp(`^ISA\\*00\\*\\s+\\*00\\*\\s+\\*ZZ\\*${OUR_ID}\\s*\\*ZZ\\*BROKERTEST\\s*\\*`),
    );
    const acked = await call('POST', '/api/edi/mailbox/ack', qivori.json.apiKey, { ids: [ack.id] });
    t.same(acked.json, { acknowledged: 1 });
    t.same(await mailbox(qivori.json.apiKey), [], 'an acknowledged document leaves the mailbox');
  },
);

t.test(
  'a second public sample (edi-lex-parse 204_example_2) becomes the expected load',
  async (t) => {
    const day = ahead(9);
    const text = fixture('edi-lex-parse-204.edi')
      .replaceAll('20230220', day)
      .replace('*02*TRUCKER           *', `*ZZ*${OUR_ID.padEnd(15)}*`)
      .replace('GS*SM*SHIPPER*TRUCKER*', `GS*SM*SHIPPER*${OUR_ID}*`);
    const answer = await send(lexParse.json.apiKey, text, 'text/plain');
    t.equal(answer.status, 202);
    t.match(answer.json.transactions, [{ setControlNumber: '77827', result: 'accepted' }]);
    const posted = await loadPosted(answer.json.transactions[0].loadId);
    t.match(posted.details, {
      refNumber: '853355462',
      weight: 20000,
      equipment: [1],
      pickupStart: at(day, '0900', 'America/New_York'),
      pickupTimezone: 'America/New_York',
      dropoffStart: at(day, '1600', 'America/New_York'),
    });
    t.match(posted.details.stops, [
      {
        locationType: 1,
        name: 'Lines',
        state: 'MI',
        number: '022020234612-4',
        contactName: 'UNKNOWN',
        contactPhone: '000-000-5700',
      },
      { locationType: 4, name: 'CITY - FREIGHT COMPANY', state: 'OH', number: '022020234612-4' },
    ]);
    t.match(posted.details.description, /APPOINTMENT ID - 32219851/);
    t.match(posted.details.description, /6Y 53 FT DRYVAN/);
    const [ack] = await mailbox(lexParse.json.apiKey);
    t.match(ack.raw, /AK9-A-1-1-1|AK9\*A\*1\*1\*1/, 'the 997 accepts it');
    t.ok(ack.raw.includes('*-~'), "the 997 uses the partner's sub-element separator");
    await call('POST', '/api/edi/mailbox/ack', lexParse.json.apiKey, { ids: [ack.id] });
  },
);

/** A small valid tender of ours: one set per entry of `sets` (each its own shipment id and pickup day). */
const tender = (options: {
  shipmentId: string;
  purpose?: string;
  pickup?: string;
  weight?: number;
  isa?: string;
  sets?: { control: string; shipmentId?: string; pickup?: string }[];
}) => {
  const set = (each: { control: string; shipmentId?: string; pickup?: string }) => {
    const body = [
      `B2**FRMK**${each.shipmentId ?? options.shipmentId}**PP`,
      `B2A*${options.purpose ?? '00'}`,
      'N7**TRL1*********RT',
      'L5*1*FROZEN FOOD',
      `S5*1*LD*${options.weight ?? 30000}*L`,
      `G62*69*${each.pickup ?? options.pickup ?? ahead(5)}*I*0700*LT`,
      'N1*SF*NORTH DOCK',
      'N3*1 MAIN ST',
      'N4*GARY*IN*46402*US',
      'S5*2*UL',
      `G62*70*${ahead(7)}*I*1500*CT`,
      'N1*ST*SOUTH DOCK',
      'N3*2 MAIN ST',
      'N4*CHICAGO*IL*60601*US',
    ];
    return [`ST*204*${each.control}`, ...body, `SE*${body.length + 2}*${each.control}`];
  };
  const sets = options.sets ?? [{ control: '0001' }];
  return `${[
    `ISA*00*          *00*          *ZZ*${(options.isa ?? 'BROKERTEST').padEnd(15)}*ZZ*${OUR_ID.padEnd(15)}*261129*1200*U*00401*000000042*0*P*>`,
    `GS*SM*BROKERTEST*${OUR_ID}*20261129*1200*42*X*004010`,
    ...sets.flatMap(set),
    `GE*${sets.length}*42`,
    'IEA*1*000000042',
  ].join('~\n')}~`;
};
const lastAck = async () => {
  const waiting = await mailbox(qivori.json.apiKey);
  const ack = waiting[waiting.length - 1];
  await call('POST', '/api/edi/mailbox/ack', qivori.json.apiKey, {
    ids: waiting.map((each: any) => each.id),
  });
  return ack;
};

t.test('what is wrong is answered by a 997 naming it, and no load is posted', async (t) => {
  const before = await postedLoads();

  const malformed = await send(qivori.json.apiKey, 'ISA*00*this is not an interchange~');
  t.equal(malformed.status, 202);
  t.match(malformed.json, {
    interchangeControlNumber: null,
    transactions: [],
    errors: [{ segment: 'ISA', reason: /could not be read/ }],
  });
  t.same(setOf((await lastAck()).raw), ['ST*997*0001', 'AK1*SM*0', 'AK9*R*0*0*0', 'SE*4*0001']);

  const wrongPartner = await send(
    qivori.json.apiKey,
    tender({ shipmentId: 'W-1', isa: 'SOMEONEELSE' }),
  );
  t.match(wrongPartner.json, {
    transactions: [{ result: 'rejected' }],
    errors: [
      {
        segment: 'ISA',
        element: 6,
        code: '14',
        reason: /SOMEONEELSE.*not this partner's ZZ\/BROKERTEST/,
      },
    ],
  });
  t.same(setOf((await lastAck()).raw), [
    'ST*997*0001',
    'AK1*SM*42',
    'AK2*204*0001',
    'AK5*R',
    'AK9*R*1*1*0*14',
    'SE*6*0001',
  ]);

  const badCount = await send(
    qivori.json.apiKey,
    tender({ shipmentId: 'C-1' }).replace('SE*16*0001', 'SE*15*0001'),
  );
  t.match(badCount.json.transactions, [
    {
      result: 'rejected',
      errors: [
        {
          segment: 'SE',
          element: 1,
          code: '4',
          reason: /SE01 \(15\) does not match the 16 segments/,
        },
      ],
    },
  ]);
  t.same(setOf((await lastAck()).raw), [
    'ST*997*0001',
    'AK1*SM*42',
    'AK2*204*0001',
    'AK5*R*4',
    'AK9*R*1*1*0',
    'SE*6*0001',
  ]);

  const badGroupCount = await send(
    qivori.json.apiKey,
    tender({ shipmentId: 'C-2' }).replace('GE*1*42', 'GE*3*42'),
  );
  t.match(badGroupCount.json.errors, [{ segment: 'GE', element: 1, code: '5' }]);
  t.match(setOf((await lastAck()).raw), [
    'ST*997*0001',
    'AK1*SM*42',
    'AK2*204*0001',
    'AK5*R',
    'AK9*R*3*1*0*5',
    'SE*6*0001',
  ]);

  const badDate = await send(qivori.json.apiKey, tender({ shipmentId: 'D-1', pickup: '20261341' }));
  t.match(badDate.json.transactions, [
    {
      result: 'rejected',
      errors: [
        {
          segment: 'G62',
          position: 7,
          element: 2,
          code: '8',
          reason: 'The date 20261341 is not a date (CCYYMMDD)',
        },
      ],
    },
  ]);
  t.same(setOf((await lastAck()).raw), [
    'ST*997*0001',
    'AK1*SM*42',
    'AK2*204*0001',
    'AK3*G62*7**8',
    'AK4*2**8',
    'AK5*R*5',
    'AK9*R*1*1*0',
    'SE*8*0001',
  ]);

  const past = await send(qivori.json.apiKey, tender({ shipmentId: 'P-1', pickup: '20200101' }));
  t.match(
    past.json.transactions,
    [
      {
        result: 'rejected',
        errors: [{ segment: 'G62', element: 2, reason: /before current date/ }],
      },
    ],
    "the form's own rules, on the segment the field came from",
  );
  await lastAck();

  t.equal(await postedLoads(), before, 'no load was posted');
});

t.test('whatever a partner sends is answered 202 or 400, never a server error', async (t) => {
  const valid = tender({ shipmentId: 'FUZZ' });
  const segments = valid.split('~\n');
  const mutated = fc.oneof(
    fc.string({ maxLength: 400 }),
    // A valid interchange with a segment dropped, doubled or cut short.
    fc
      .tuple(fc.nat(segments.length - 1), fc.constantFrom('drop', 'double', 'cut'))
      .map(([index, how]) =>
        segments
          .flatMap((segment, at) =>
            at !== index
              ? [segment]
              : how === 'drop'
                ? []
                : how === 'double'
                  ? [segment, segment]
                  : [segment.slice(0, Math.max(1, segment.length >> 1))],
          )
          .join('~\n'),
      ),
    // An element replaced by hostile text.
    fc
      .tuple(fc.nat(segments.length - 1), fc.string({ maxLength: 30 }))
      .map(([index, text]) =>
        segments
          .map((segment, at) => (at === index ? `${segment.split('*')[0]}*${text}` : segment))
          .join('~\n'),
      ),
  );
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(mutated, async (text) => {
      const { status } = await send(qivori.json.apiKey, text, 'text/plain');
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return status === 202 || status === 400;
    }),
    { numRuns: 100 },
  );
  t.ok(!statuses.has(500), `answers: ${JSON.stringify([...statuses])}`);
  await call('POST', '/api/edi/mailbox/ack', qivori.json.apiKey, {
    ids: (await mailbox(qivori.json.apiKey)).map((each: any) => each.id),
  });
});

t.test('a failing set is rejected alone: its sibling in the group is posted', async (t) => {
  const text = tender({
    shipmentId: 'S-1',
    sets: [{ control: '0001' }, { control: '0002', shipmentId: 'S-2', pickup: '20261399' }],
  });
  const answer = await send(qivori.json.apiKey, text);
  t.match(answer.json.transactions, [
    { setControlNumber: '0001', result: 'accepted', loadId: String },
    {
      setControlNumber: '0002',
      result: 'rejected',
      errors: [{ segment: 'G62', element: 2, code: '8' }],
    },
  ]);
  const posted = await loadPosted(answer.json.transactions[0].loadId);
  t.match(posted.details, {
    refNumber: 'S-1',
    weight: 30000,
    equipment: [9],
    commodity: 'FROZEN FOOD',
  });
  t.match(setOf((await lastAck()).raw), [
    'ST*997*0001',
    'AK1*SM*42',
    'AK2*204*0001',
    'AK5*A',
    'AK2*204*0002',
    'AK3*G62*7**8',
    'AK4*2**8',
    'AK5*R*5',
    'AK9*P*2*2*1',
    'SE*10*0001',
  ]);
});

t.test('a change (04) edits the tendered load; a cancel (01) cancels it', async (t) => {
  const original = await send(qivori.json.apiKey, tender({ shipmentId: 'CH-1', weight: 10000 }));
  const loadId = original.json.transactions[0].loadId;
  const change = await send(
    qivori.json.apiKey,
    tender({ shipmentId: 'CH-1', purpose: '04', weight: 12000 }),
  );
  t.match(change.json.transactions, [{ result: 'accepted', loadId }]);
  const { events } = await platform.store.readStream(`load-${loadId}`);
  t.match(events.at(-1), { type: 'LoadUpdated', data: { details: { weight: 12000 } } });
  const again = await send(qivori.json.apiKey, tender({ shipmentId: 'CH-1' }));
  t.match(again.json.transactions, [
    {
      result: 'rejected',
      errors: [{ segment: 'B2', element: 4, reason: 'Tender CH-1 was already received' }],
    },
  ]);
  const cancel = await send(qivori.json.apiKey, tender({ shipmentId: 'CH-1', purpose: '01' }));
  t.match(cancel.json.transactions, [{ result: 'accepted', loadId }]);
  const detail = await call('GET', `/api/loads/${loadId}`, shipper.token);
  t.equal(detail.json.status, GenericStatus.Canceled);
  const unknown = await send(qivori.json.apiKey, tender({ shipmentId: 'NONE', purpose: '01' }));
  t.match(unknown.json.transactions, [
    { result: 'rejected', errors: [{ segment: 'B2', reason: 'No tender NONE to cancel' }] },
  ]);
  await lastAck();
});

t.test(
  'documents: listed for the organization, raw text, 404 across organizations, resent',
  async (t) => {
    const list = await call('GET', '/api/edi/documents?pageSize=100', shipper.token);
    t.equal(list.status, 200);
    t.ok(list.json.total >= 10);
    t.ok(
      list.json.data.some(
        (row: any) =>
          row.direction === 'in' &&
          row.type === '204' &&
          row.status === 'rejected' &&
          row.errors.length > 0,
      ),
    );
    const ack = list.json.data.find((row: any) => row.type === '997');
    t.match(ack, {
      direction: 'out',
      status: 'fetched',
      partner: String,
      controlNumber: /^\d{9}$/,
    });
    const raw = await call('GET', `/api/edi/documents/${ack.id}/raw`, shipper.token);
    t.equal(raw.status, 200);
    t.match(raw.headers['content-type'], /application\/edi-x12/);
    t.match(raw.text, /^ISA\*/);
    t.equal(
      (await call('GET', `/api/edi/documents/${ack.id}/raw`, otherShipper.token)).status,
      404,
    );
    t.equal(
      (await call('GET', `/api/edi/documents/${randomUUID()}/raw`, shipper.token)).status,
      404,
    );
    const filtered = await call(
      'GET',
      `/api/edi/documents?filters=${encodeURIComponent(JSON.stringify([{ name: 'type', value: ['997'] }]))}`,
      shipper.token,
    );
    t.ok(filtered.json.data.every((row: any) => row.type === '997'));
    t.equal(
      (
        await call(
          'GET',
          `/api/edi/documents?filters=${encodeURIComponent(JSON.stringify([{ name: 'type', value: ['850'] }]))}`,
          shipper.token,
        )
      ).status,
      400,
    );

    const resent = await call('POST', `/api/edi/documents/${ack.id}/resend`, shipper.token);
    t.same(resent.json, { id: ack.id, status: 'waiting' });
    t.ok(
      (await mailbox(qivori.json.apiKey)).some((each: any) => each.id === ack.id),
      'back in the mailbox',
    );
    const incoming = list.json.data.find((row: any) => row.direction === 'in');
    t.equal(
      (await call('POST', `/api/edi/documents/${incoming.id}/resend`, shipper.token)).status,
      409,
    );
    await lastAck();
  },
);

t.test(
  'a tender booked and driven: the 990, the 214s in order and the 210, delivered signed',
  async (t) => {
    const partner = await createPartner({
      name: 'Receiving TMS',
      isaQualifier: '02',
      isaId: 'RECVTMS',
      gsId: 'RECVTMS',
      deliver: { url: receiverUrl },
    });
    t.equal(partner.status, 201);
    t.match(partner.json.signingSecret, /^whsec_/);
    const text = tender({ shipmentId: 'FLOW-1' })
      .replace('*ZZ*BROKERTEST     *', '*02*RECVTMS        *')
      .replace('GS*SM*BROKERTEST*', 'GS*SM*RECVTMS*');
    const answer = await send(partner.json.apiKey, text);
    const loadId = answer.json.transactions[0].loadId;
    t.ok(loadId, 'posted');
    await waitUntil(() => received.length >= 1, 5000, 'the 997');
    t.match(setOf(received[0]!.body), [
      'ST*997*0001',
      'AK1*SM*42',
      'AK2*204*0001',
      'AK5*A',
      'AK9*A*1*1*1',
    ]);

    // Booked on the marketplace: an offer accepted.
    const offerId = await steps.submitOffer(carrier, loadId, { price: 1800 });
    const tourId = await steps.acceptOffer(shipper, offerId);
    await steps.signContract(carrier, loadId);
    await steps.assignDriver(carrier, tourId, driver);
    await steps.moveTour(driver, Role.Driver, tourId, TourStatus.Dispatched, 'Rolling');
    const posted = await loadPosted(loadId);
    const [pickupStop, dropoffStop] = posted.details.stops;
    const driverCaller = callerFor(driver, Role.Driver);
    const now = () => new Date().toISOString();
    for (const [type, stop] of [
      ['arrived', pickupStop],
      ['departed', pickupStop],
      ['arrived', dropoffStop],
    ] as const) {
      await platform.marketplace.addTourEvent(
        driverCaller,
        tourId,
        { type, message: '', stopId: stop!.id },
        now(),
      );
    }
    await steps.moveTour(driver, Role.Driver, tourId, TourStatus.InTransit);
    await steps.moveTour(driver, Role.Driver, tourId, TourStatus.PendingDeliveryConfirmation);
    await steps.moveTour(shipper, Role.Shipper, tourId, TourStatus.Delivered);

    // The carrier's invoice, as the invoice events stand on main.
    const invoiceId = randomUUID();
    const submittedAt = new Date().toISOString();
    await platform.store.append(
      invoiceStream(invoiceId),
      [
        {
          type: 'InvoiceDrafted',
          data: {
            invoiceId,
            number: 'INV-000007',
            loadId,
            loadGuid: posted.guid,
            tourId,
            carrierOrganizationId: carrier.organizationId!,
            shipperOrganizationId: shipper.organizationId!,
            termsDays: 30,
            lines: [
              { kind: 'linehaul', description: 'Line haul', amount: 1800 },
              {
                kind: 'detention',
                claimId: randomUUID(),
                description: 'Detention at pickup',
                amount: 75.5,
              },
            ],
            total: 1875.5,
            remitTo: { name: 'Carrier', address: '1 Road', factor: false },
            draftedAt: submittedAt,
          },
        },
        {
          type: 'InvoiceSubmitted',
          data: {
            invoiceId,
            reference: 'ACC-9',
            submittedBy: carrier.userId,
            submittedAt,
            dueAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
            total: 1875.5,
            pdfFileId: randomUUID(),
            pdfSha256: '0'.repeat(64),
          },
        },
      ],
      {
        expectedRevision: 'no_stream',
        metadata: {
          userId: carrier.userId,
          organizationId: carrier.organizationId,
          correlationId: loadId,
          causationId: null,
          at: submittedAt,
        },
      },
    );

    await waitUntil(() => received.length >= 7, 10_000, 'the 990, four 214s and the 210');
    const documents = received.slice(1).map((each) => setOf(each.body));
    t.same(
      documents.map((set) => set[0]),
      ['ST*990*0001', 'ST*214*0001', 'ST*214*0001', 'ST*214*0001', 'ST*214*0001', 'ST*210*0001'],
      'in the order things happened',
    );
    const [b1, n9] = documents[0]!.slice(1);
    t.match(b1, /^B1\*FREI\*FLOW-1\*\d{8}\*A$/, 'the 990 accepts the tender');
    t.equal(n9, `N9*CN*${posted.guid}`);
    const statuses = documents
      .slice(1, 5)
      .map((set) => set.find((line) => line.startsWith('AT7'))!.split('*')[1]);
    t.same(statuses, ['X3', 'AF', 'X1', 'D1']);
    t.match(documents[1], [
      'ST*214*0001',
      `B10*${posted.guid}*FLOW-1*FREI`,
      'LX*1',
      /^AT7\*X3\*NS\*\*\*\d{8}\*\d{4}\*UT$/,
      /^MS1\*Gary\*IN\*US$/,
      'L11*1*QN',
      'SE*7*0001',
    ]);
    t.match(documents[3]![4], /^MS1\*Chicago\*IL\*US$/, 'X1 at the delivery stop');
    t.match(documents[5], [
      'ST*210*0001',
      /^B3\*\*INV-000007\*FLOW-1\*PP\*\*\d{8}\*187550\*\*\*\*FREI\*\d{8}$/,
      'C3*USD',
      `N9*CN*${posted.guid}`,
      'N9*IK*ACC-9',
      /^N1\*SH\*/,
      /^N1\*CA\*/,
      'LX*1',
      'L1*1***180000****400****Line haul',
      'LX*2',
      'L1*2***7550****DET****Detention at pickup',
      'L3*****187550',
      'SE*13*0001',
    ]);

    // Signed as webhooks are, with the partner's secret.
    const last = received[received.length - 1]!;
    t.equal(last.headers['content-type'], 'application/edi-x12');
    const expected = signWebhook(
      partner.json.signingSecret,
      String(last.headers['webhook-id']),
      Number(last.headers['webhook-timestamp']),
      last.body,
    );
    t.equal(last.headers['webhook-signature'], expected);

    // Each answer is recorded just after the receiver has it.
    const sentRows = async () =>
      (await call('GET', '/api/edi/documents?pageSize=20', shipper.token)).json.data.filter(
        (row: any) => row.partnerId === partner.json.id && row.direction === 'out',
      );
    let rows = await sentRows();
    for (
      let waited = 0;
      waited < 5_000 && rows.some((row: any) => row.status !== 'delivered');
      waited += 25
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      rows = await sentRows();
    }
    t.equal(rows.length, 7, 'the 997, the 990, four 214s and the 210');
    t.ok(rows.every((row: any) => row.status === 'delivered' && row.attempts === 1));
    t.equal(await loadCountOf(otherShipper.organizationId!), 0);

    // An endpoint that fails: tried again, each attempt kept, then delivered; and sent again on request.
    failing = 2;
    const before = received.length;
    const second = await send(
      partner.json.apiKey,
      tender({ shipmentId: 'FLOW-2' })
        .replace('*ZZ*BROKERTEST     *', '*02*RECVTMS        *')
        .replace('GS*SM*BROKERTEST*', 'GS*SM*RECVTMS*'),
    );
    t.equal(second.status, 202);
    await waitUntil(() => received.length > before, 10_000, 'the 997 after two failures');
    // The receiver has it; the sender records the answer just after.
    let ackRow: any = null;
    for (let waited = 0; waited < 5_000 && ackRow?.status !== 'delivered'; waited += 25) {
      ackRow = (await call('GET', '/api/edi/documents?pageSize=1', shipper.token)).json.data[0];
      if (ackRow.status !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 25));
    }
    t.match(ackRow, { type: '997', status: 'delivered', attempts: 3, lastError: null });
    const attempts = await platform.database.db
      .selectFrom('edi_attempts')
      .select(['ok', 'response_status'])
      .where('document_id', '=', ackRow.id)
      .orderBy('id')
      .execute();
    t.same(
      attempts.map((attempt) => [attempt.ok, attempt.response_status]),
      [
        [false, 503],
        [false, 503],
        [true, 200],
      ],
    );
    const resent = await call('POST', `/api/edi/documents/${ackRow.id}/resend`, shipper.token);
    t.same(resent.json, { id: ackRow.id, status: 'queued' });
    await waitUntil(() => received.length > before + 1, 10_000, 'the 997 sent again');
    t.equal(received.at(-1)!.headers['webhook-id'], ackRow.id, 'the same document id');
  },
);

t.test('a load canceled on our side answers the tender with a declining 990', async (t) => {
  const partner = await createPartner({
    name: 'Mailbox TMS',
    isaQualifier: 'ZZ',
    isaId: 'MAILTMS',
    gsId: 'MAILTMS',
    deliver: { mailbox: true },
  });
  const text = tender({ shipmentId: 'DECL-1' })
    .replace('*ZZ*BROKERTEST     *', '*ZZ*MAILTMS        *')
    .replace('GS*SM*BROKERTEST*', 'GS*SM*MAILTMS*');
  const loadId = (await send(partner.json.apiKey, text)).json.transactions[0].loadId;
  const canceled = await call('PUT', `/api/loads/${loadId}/status`, shipper.token, {
    status: GenericStatus.Canceled,
    message: 'Plant closed',
  });
  t.equal(canceled.status, 200);
  let documents: any[] = [];
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    documents = await mailbox(partner.json.apiKey);
    if (documents.some((each) => each.type === '990')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const decline = documents.find((each) => each.type === '990');
  t.ok(decline, 'a 990 waits in the mailbox');
  t.match(setOf(decline.raw), [
    'ST*990*0001',
    /^B1\*FREI\*DECL-1\*\d{8}\*D$/,
    /^N9\*CN\*L-/,
    'K1*Plant closed',
    'SE*5*0001',
  ]);
});
