/**
 * Proof of delivery over HTTP on a real server: only the assigned driver records it, from the
 * arrival at the last stop until Delivered; files are judged by their bytes and bounded; a retry
 * records it once; the load's history (JSON and CSV) holds it; its files are read by the tour's
 * parties and by no other organization.
 */
import { pngImage } from '../integrations/pdf/testing.ts';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { watchEvents } from '../testing/events.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { runningTour } from '../testing/runningTour.ts';
import { expectStatus, login, startListeningApp } from '../realtime/testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { platform, app, baseUrl, http } = await startListeningApp(t);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Dan Driver',
});
const otherDriver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Olga Other',
});
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Goods' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Beta Trucking' });
const emails = { shipper: shipper.email, carrier: carrier.email, driver: driver.email };
const tokenOf = async (who: keyof typeof emails) => (await login(http, emails[who])).accessToken;

/** A real 2x2 PNG. */
const PNG = Buffer.from(
  pngImage(2, 2, (x, y) =>
    y === 0 ? (x === 0 ? [255, 0, 0] : [0, 255, 0]) : x === 0 ? [0, 0, 255] : [255, 255, 255],
  ),
);
/** The start of a JPEG (JFIF): what a byte check reads. */
const JPEG = Buffer.concat([
  Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00,
  ]),
  Buffer.alloc(200, 7),
  Buffer.from([0xff, 0xd9]),
]);

type Part = { field: string; content: Buffer; filename: string; type?: string };
async function sendPod(token: string, tourId: string, data: unknown, files: Part[]) {
  const form = new FormData();
  if (data !== undefined)
    form.append('data', typeof data === 'string' ? data : JSON.stringify(data));
  for (const file of files)
    form.append(
      file.field,
      new Blob([new Uint8Array(file.content)], { type: file.type ?? 'application/octet-stream' }),
      file.filename,
    );
  const response = await fetch(`${baseUrl}/api/tours/${tourId}/pod`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}
const photo = (content: Buffer = JPEG, filename = 'box.jpg'): Part => ({
  field: 'photo',
  content,
  filename,
  type: 'image/jpeg',
});
const signature: Part = {
  field: 'signature',
  content: PNG,
  filename: 'signature.png',
  type: 'image/png',
};
const proof = (id: string) => ({
  id,
  receivedBy: 'Rita Receiver',
  note: 'Two pallets, one corner dented',
});

const position = (tourId: string, latitude: number, longitude: number) =>
  expectStatus(
    http('POST', `/api/tours/${tourId}/positions`, driver.token, {
      latitude,
      longitude,
      speed: 50,
      heading: 90,
    }),
    202,
    'position',
  );
/** Through the geofence: at the pickup, away from it (In Transit), then at the dropoff, the last stop. */
async function driveToLastStop(tourId: string) {
  await position(tourId, 41.8781, -87.6298);
  await position(tourId, 41.0, -87.0);
  await position(tourId, 39.7684, -86.1581);
}

const { loadId, tourId } = await runningTour(http, tokenOf, driver.userId);
/** What each request appended (the tour's own stream where the geofence or reactors also write). */
const events = await watchEvents(platform.store);
const ofTheTour = { stream: tourStream(tourId) };
const proofId = crypto.randomUUID();
const files = (token: string, id: string) =>
  fetch(`${baseUrl}/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } });

t.test('before the arrival at the last stop: 409 with the reason', async (t) => {
  const early = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [photo()]);
  t.equal(early.status, 409);
  t.match(early.json.message, /arrived at the last stop/);
  await events.expect(t, [], { ...ofTheTour, message: 'a refused proof appends nothing' });
  await position(tourId, 41.8781, -87.6298);
  await position(tourId, 41.0, -87.0);
  await events.take();
  const onTheRoad = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [photo()]);
  t.equal(onTheRoad.status, 409, 'still 409 on the road');
  await events.expect(t, [], { ...ofTheTour, message: 'nor on the road' });
  await position(tourId, 39.7684, -86.1581);
  await events.take();
  t.equal(
    (await http('GET', `/api/tours/${tourId}/pod`, shipper.token)).json.length,
    0,
    'nothing was recorded',
  );
});

t.test('who may record it', async (t) => {
  t.equal(
    (await sendPod(carrier.token, tourId, proof(crypto.randomUUID()), [photo()])).status,
    403,
    "the carrier's dispatcher: 403",
  );
  t.equal(
    (await sendPod(shipper.token, tourId, proof(crypto.randomUUID()), [photo()])).status,
    403,
    'the shipper: 403',
  );
  t.equal(
    (await sendPod(admin.token, tourId, proof(crypto.randomUUID()), [photo()])).status,
    403,
    'the Superadmin: 403',
  );
  t.equal(
    (await sendPod(otherDriver.token, tourId, proof(crypto.randomUUID()), [photo()])).status,
    404,
    'another driver: the tour is not theirs',
  );
  t.equal(
    (await sendPod(otherCarrier.token, tourId, proof(crypto.randomUUID()), [photo()])).status,
    404,
    'another carrier: 404',
  );
  t.equal(
    (await sendPod(otherShipper.token, tourId, proof(crypto.randomUUID()), [photo()])).status,
    404,
    'another shipper: 404',
  );
  t.equal(
    (await sendPod(driver.token, crypto.randomUUID(), proof(crypto.randomUUID()), [photo()]))
      .status,
    404,
    'an unknown tour: 404',
  );
  await events.expect(t, [], { message: 'no refused proof appends anything' });
});

t.test('files are judged by their bytes and bounded', async (t) => {
  const text = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [
    photo(Buffer.from('just some text, not a picture'), 'photo.jpg'),
  ]);
  t.equal(text.status, 400, 'a .jpg that is text');
  t.match(text.json.errors, [{ path: 'photo' }], 'names the field');
  const pdfSignature = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [
    photo(),
    { field: 'signature', content: JPEG, filename: 'sig.png', type: 'image/png' },
  ]);
  t.equal(pdfSignature.status, 400, 'a signature that is a JPEG');
  t.match(pdfSignature.json.errors, [{ path: 'signature' }]);
  const six = await sendPod(
    driver.token,
    tourId,
    proof(crypto.randomUUID()),
    Array.from({ length: 6 }, () => photo()),
  );
  t.equal(six.status, 400, 'six photos');
  t.match(six.json.errors, [{ path: 'photo' }]);
  const huge = Buffer.concat([JPEG.subarray(0, 20), Buffer.alloc(10 * 1024 * 1024 + 1, 1)]);
  const tooLarge = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [photo(huge)]);
  t.ok(tooLarge.status === 413 || tooLarge.status === 400, `over 10 MB: ${tooLarge.status}`);
  t.match(tooLarge.json.errors, [{ path: 'photo' }]);
  const noName = await sendPod(
    driver.token,
    tourId,
    { id: crypto.randomUUID(), receivedBy: '   ' },
    [photo()],
  );
  t.equal(noName.status, 400, 'who received the goods is required');
  t.match(noName.json.errors, [{ path: 'receivedBy' }]);
  const noData = await sendPod(driver.token, tourId, undefined, [photo()]);
  t.equal(noData.status, 400);
  t.match(noData.json.errors, [{ path: 'data' }]);
  const noFile = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), []);
  t.equal(noFile.status, 400);
  t.match(noFile.json.errors, [{ path: 'photo' }]);
  const stray = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [
    photo(),
    { field: 'other', content: PNG, filename: 'x.png' },
  ]);
  t.equal(stray.status, 400);
  t.match(stray.json.errors, [{ path: 'other' }]);
  t.equal(
    (await http('GET', `/api/tours/${tourId}/pod`, driver.token)).json.length,
    0,
    'no refused proof was recorded',
  );
  await events.expect(t, [], { message: 'a refused file appends nothing' });
  const stored = await platform.database.db
    .selectFrom('files')
    .select('id')
    .where('tour_id', '=', tourId)
    .execute();
  t.equal(stored.length, 0, 'and no file of a refused proof is kept');
});

t.test('the driver records it; a retry records it once', async (t) => {
  const first = await sendPod(driver.token, tourId, proof(proofId), [
    photo(),
    photo(PNG, 'second.png'),
    signature,
  ]);
  t.equal(first.status, 201);
  t.equal(first.json.id, proofId);
  await events.expect(t, [
    {
      type: 'ProofOfDeliveryRecorded',
      stream: tourStream(tourId),
      data: {
        tourId,
        proofId,
        receivedBy: 'Rita Receiver',
        note: 'Two pallets, one corner dented',
        recordedBy: driver.userId,
        files: [{ kind: 'photo' }, { kind: 'photo' }, { kind: 'signature' }],
      },
    },
    {
      type: 'TourEventAdded',
      data: { tourId, message: 'Proof of delivery, received by Rita Receiver' },
    },
  ]);
  const again = await sendPod(driver.token, tourId, proof(proofId), [
    photo(),
    photo(PNG, 'second.png'),
    signature,
  ]);
  t.equal(again.status, 201, 'the same proof again');
  t.equal(again.json.id, proofId);
  await events.expect(t, [], { message: 'a retry appends nothing' });
  const list = await http('GET', `/api/tours/${tourId}/pod`, shipper.token);
  t.equal(list.status, 200);
  t.equal(list.json.length, 1, 'one proof');
  t.match(list.json[0], {
    id: proofId,
    receivedBy: 'Rita Receiver',
    note: 'Two pallets, one corner dented',
    at: /^\d{4}-/,
  });
  t.same(
    list.json[0].files.map((file: any) => [file.kind, file.name]),
    [
      ['photo', 'photo-1.jpg'],
      ['photo', 'photo-2.png'],
      ['signature', 'signature.png'],
    ],
  );
  const stored = await platform.database.db
    .selectFrom('files')
    .select('id')
    .where('tour_id', '=', tourId)
    .execute();
  t.equal(stored.length, 3, 'its files stored once');
  const logged = await platform.database.db
    .selectFrom('events')
    .select('type')
    .where('type', '=', 'ProofOfDeliveryRecorded')
    .execute();
  t.equal(logged.length, 1, 'one event in the log');
  const timeline = await http('GET', `/api/tours/${tourId}/events`, shipper.token);
  t.equal(
    timeline.json.filter(
      (entry: any) => entry.message === 'Proof of delivery, received by Rita Receiver',
    ).length,
    1,
    "one line in the tour's timeline, there at once",
  );
});

t.test('who reads the proof and its files', async (t) => {
  const [photoFile, , signatureFile] = (
    await http('GET', `/api/tours/${tourId}/pod`, carrier.token)
  ).json[0].files;
  for (const [name, token] of Object.entries({
    shipper: shipper.token,
    carrier: carrier.token,
    driver: driver.token,
    admin: admin.token,
  })) {
    t.equal((await http('GET', `/api/tours/${tourId}/pod`, token)).status, 200, `${name} lists it`);
    const response = await files(token, photoFile.id);
    t.equal(response.status, 200, `${name} reads the photo`);
    t.equal(response.headers.get('content-type'), 'image/jpeg');
    t.same(Buffer.from(await response.arrayBuffer()), JPEG, 'the bytes as sent');
  }
  const sig = await files(shipper.token, signatureFile.id);
  t.equal(sig.headers.get('content-type'), 'image/png');
  for (const [name, token] of Object.entries({
    otherShipper: otherShipper.token,
    otherCarrier: otherCarrier.token,
    otherDriver: otherDriver.token,
  })) {
    t.equal(
      (await http('GET', `/api/tours/${tourId}/pod`, token)).status,
      404,
      `${name}: the list is 404`,
    );
    t.equal((await files(token, photoFile.id)).status, 404, `${name}: the photo is 404`);
  }
});

t.test("the load's history holds it, in JSON and CSV", async (t) => {
  const history = await http('GET', `/api/loads/${loadId}/history`, shipper.token);
  t.equal(history.status, 200);
  const entry = history.json.events.find((event: any) => event.type === 'ProofOfDeliveryRecorded');
  t.ok(entry, 'the event is in the trail');
  t.match(entry, {
    user: { id: driver.userId, name: 'Dan Driver' },
    organization: { id: carrier.organizationId },
    data: { proofId, receivedBy: 'Rita Receiver' },
  });
  t.equal(entry.data.files.length, 3);
  const csv = await fetch(`${baseUrl}/api/loads/${loadId}/history?format=csv`, {
    headers: { authorization: `Bearer ${shipper.token}` },
  });
  t.equal(csv.status, 200);
  const text = await csv.text();
  const line = text.split('\r\n').find((row) => row.includes('ProofOfDeliveryRecorded'));
  t.ok(line, 'a CSV row');
  t.match(line, /Rita Receiver/);
  t.match(line, /Dan Driver/);
});

t.test(
  'after Delivered: 409, though a retry of the recorded proof still answers its id',
  async (t) => {
    await expectStatus(
      http('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 10, message: 'Unloaded' }),
      200,
      'pending confirmation',
    );
    await events.expect(
      t,
      [{ type: 'TourStatusChanged', data: { tourId, to: 10 } }, 'TourEventAdded'],
      ofTheTour,
    );
    const secondId = crypto.randomUUID();
    const whilePending = await sendPod(driver.token, tourId, proof(secondId), [photo()]);
    t.equal(whilePending.status, 201, 'a second proof while the shipper has not confirmed');
    await events.expect(
      t,
      [{ type: 'ProofOfDeliveryRecorded', data: { tourId, proofId: secondId } }, 'TourEventAdded'],
      ofTheTour,
    );
    await expectStatus(
      http('PUT', `/api/tours/${tourId}/status`, shipper.token, { status: 4, message: 'Received' }),
      200,
      'delivered',
    );
    await events.expect(
      t,
      [{ type: 'TourStatusChanged', data: { tourId, to: 4 } }, 'TourEventAdded'],
      ofTheTour,
    );
    const late = await sendPod(driver.token, tourId, proof(crypto.randomUUID()), [photo()]);
    t.equal(late.status, 409);
    t.match(late.json.message, /already delivered/);
    const retry = await sendPod(driver.token, tourId, proof(proofId), [
      photo(),
      photo(PNG, 'second.png'),
      signature,
    ]);
    t.equal(retry.status, 201);
    t.equal(retry.json.id, proofId);
    await events.expect(t, [], { ...ofTheTour, message: 'neither a late proof nor a retry' });
    t.equal((await http('GET', `/api/tours/${tourId}/pod`, shipper.token)).json.length, 2);
  },
);

t.test('a second tour: the last stop, not any stop, opens the window', async (t) => {
  const second = await runningTour(http, tokenOf, driver.userId);
  await position(second.tourId, 41.8781, -87.6298);
  t.equal(
    (await sendPod(driver.token, second.tourId, proof(crypto.randomUUID()), [photo()])).status,
    409,
    'at the pickup',
  );
  await driveToLastStop(second.tourId);
  t.equal(
    (await sendPod(driver.token, second.tourId, proof(crypto.randomUUID()), [signature])).status,
    201,
    'a signature alone is a proof',
  );
  await events.expect(
    t,
    [
      {
        type: 'ProofOfDeliveryRecorded',
        data: { tourId: second.tourId, files: [{ kind: 'signature' }] },
      },
    ],
    { types: ['ProofOfDeliveryRecorded'] },
  );
});
