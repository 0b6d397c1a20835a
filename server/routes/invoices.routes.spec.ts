// @postgres: invoice numbers reserved with the stream revision (two drafts at once), and the invoices table
import t from 'tap';
import { invoiceStream } from '../../domain/invoices/invoice.types.ts';
import { Role } from '../../domain/permissions.ts';
import { member, organization, PASSWORD, superadmin } from '../identity/fixtures.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { pngImage } from '../integrations/pdf/testing.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';
import { livePushes } from '../realtime/notifier.ts';
import { organizationRoom } from '../realtime/rooms.ts';

/**
 * Invoices over HTTP: the shipper confirms the delivery on the driver's proof, which drafts the
 * carrier's invoice from the agreed price and the approved claim; the carrier submits it (a PDF),
 * the shipper disputes a line, the carrier answers, the shipper approves, schedules and pays, the
 * carrier reports the payment missing and then received. Payment terms and a factor from the
 * organizations, overdue, approval by silence; who may do what, 404 for other organizations and
 * 400 naming the field; the audit trail.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);
const admin = await superadmin(app, platform);
const PNG = Buffer.from(pngImage(2, 2, () => [255, 255, 255]));
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const terms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 75,
  detentionCap: 600,
  tonu: 250,
  layoverPerDay: 300,
  lumper: 'carrier-reimbursed',
  graceMinutes: 30,
  disputeWindowHours: 48,
};
type User = Parameters<typeof as>[0];

const parties = async () => {
  const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
  const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
  const stranger = await organization(app, platform, 'Shipper');
  const strangerCarrier = await organization(app, platform, 'Carrier');
  return { shipper, carrier, driver, stranger, strangerCarrier };
};

/** A tour at its last stop with the driver's proof of delivery; with `detention`, 3 hours there. */
async function deliveredWithProof(
  p: Awaited<ReturnType<typeof parties>>,
  options: { detention?: boolean; price?: number } = {},
) {
  const { shipper, carrier, driver } = p;
  const { tourId, loadId } = await steps.tourAt(
    'inTransit',
    { shipper, carrier, driver },
    { price: options.price ?? 1800, load: { terms } },
  );
  const tour = await platform.marketplace.loadTour(tourId);
  const delivery = tour!.stops.at(-1)!;
  const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
  const appointment = Date.parse(load.dropOffTimestampStart);
  await platform.marketplace.addSystemTourEvent(
    tourId,
    { type: 'arrived', message: 'Arrived', stopId: delivery.id },
    'geofence',
    new Date(appointment - 10 * 60_000).toISOString(),
  );
  if (options.detention) {
    await platform.marketplace.addSystemTourEvent(
      tourId,
      { type: 'departed', message: 'Departed', stopId: delivery.id },
      'geofence',
      new Date(appointment + 3 * HOUR).toISOString(),
    );
    let claims: { id: string }[] = [];
    for (let attempt = 0; attempt < 100 && claims.length === 0; attempt++) {
      claims = (await as(shipper).get(`/api/tours/${tourId}/claims`)).body;
      if (claims.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const approved = await as(shipper).post(`/api/tours/${tourId}/claims/${claims[0]!.id}/approve`);
    if (approved.status !== 200) throw new Error(`claim approval: ${approved.text}`);
  }
  const proof = await as(driver).upload(`/api/tours/${tourId}/pod`, {
    data: { receivedBy: 'Pat Receiver' },
    files: { photo: { content: PNG, filename: 'box.png', type: 'image/png' } },
  });
  if (proof.status >= 300) throw new Error(`proof: ${proof.status} ${proof.text}`);
  return { tourId, loadId };
}

const nameOf = async (user: User) =>
  (await platform.identity.loadOrganization(
    (user as unknown as { organizationId: string }).organizationId,
  ))!;

t.test(
  'the full life of an invoice: confirmed delivery, draft, submission, dispute, answer, approval, schedule, payment, receipt',
  async (t) => {
    const p = await parties();
    const { shipper, carrier, driver, stranger, strangerCarrier } = p;
    const { tourId, loadId } = await deliveredWithProof(p, { detention: true });

    // Confirming the delivery: the shipper's, once, on its own tour.
    t.equal(
      (await as(carrier).post(`/api/tours/${tourId}/confirm-delivery`)).status,
      403,
      'the carrier does not confirm the delivery',
    );
    t.equal((await as(driver).post(`/api/tours/${tourId}/confirm-delivery`)).status, 403);
    t.equal(
      (await as(stranger).post(`/api/tours/${tourId}/confirm-delivery`)).status,
      404,
      "another shipper's tour is not found",
    );
    const confirmed = await as(shipper).post(`/api/tours/${tourId}/confirm-delivery`);
    t.equal(confirmed.status, 200, confirmed.text);
    const { invoiceId } = confirmed.body;
    t.match(confirmed.body, { tourId, invoiceId: String });
    const again = await as(shipper).post(`/api/tours/${tourId}/confirm-delivery`);
    t.equal(again.status, 409);
    t.match(again.body.message, /already confirmed/);
    t.equal((await as(shipper).get(`/api/tours/${tourId}`)).body.status, 4, 'Delivered');

    // The draft: the agreed price and the approved detention, numbered for the carrier.
    const listed = await as(carrier).get('/api/invoices');
    t.equal(listed.status, 200);
    t.equal(listed.body.total, 1);
    t.match(listed.body.data[0], {
      id: invoiceId,
      number: 'INV-000001',
      loadId,
      carrier: 'Zeta Hauling',
      shipper: 'Acme Shipping',
      status: 'draft',
      total: 1875,
      dueAt: null,
      submittedAt: null,
      paidAt: null,
    });
    t.equal((await as(shipper).get('/api/invoices')).body.total, 1, 'the shipper’s payables');
    t.equal((await as(stranger).get('/api/invoices')).body.total, 0, 'others see none');
    t.equal((await as(strangerCarrier).get('/api/invoices')).body.total, 0);
    t.equal((await as(driver).get('/api/invoices')).status, 403, 'a driver has no invoices');
    t.equal((await as(stranger).get(`/api/invoices/${invoiceId}`)).status, 404);
    t.equal((await as(strangerCarrier).get(`/api/invoices/${invoiceId}`)).status, 404);
    t.equal(
      (await as(admin).get(`/api/invoices/${invoiceId}`)).status,
      200,
      'a Superadmin reads it',
    );
    const detail = (await as(shipper).get(`/api/invoices/${invoiceId}`)).body;
    t.match(detail, {
      termsDays: 30,
      remitTo: { name: 'Zeta Hauling', factor: false },
      pdfFileId: null,
      lines: [
        { kind: 'linehaul', description: 'Line haul', amount: 1800, status: 'open' },
        { kind: 'detention', amount: 75, status: 'open' },
      ],
    });

    const url = `/api/invoices/${invoiceId}`;
    const early = await as(shipper).post(`${url}/approve`);
    t.equal(early.status, 409, 'a draft is not approved');
    t.match(early.body.message, /draft cannot be approved/);
    t.equal((await as(shipper).post(`${url}/submit`, {})).status, 403, 'the carrier submits');
    t.equal((await as(strangerCarrier).post(`${url}/submit`, {})).status, 404);

    const submitted = await as(carrier).post(`${url}/submit`, { reference: 'ACC-77' });
    t.equal(submitted.status, 200, submitted.text);
    t.match(submitted.body, { status: 'submitted', reference: 'ACC-77', pdfFileId: String });
    t.equal(
      Date.parse(submitted.body.dueAt) - Date.parse(submitted.body.submittedAt),
      30 * DAY,
      'due after net 30',
    );
    t.equal(
      Date.parse(submitted.body.silenceApprovesAt) - Date.parse(submitted.body.submittedAt),
      10 * DAY,
      'silence approves after 10 days',
    );
    const pdf = await as(shipper).get(`/api/files/${submitted.body.pdfFileId}`);
    t.equal(pdf.status, 200, 'the shipper downloads the PDF');
    t.match(String(pdf.headers['content-type']), /application\/pdf/);
    const events = (await platform.store.readStream(invoiceStream(invoiceId))).events;
    t.match(events.at(-1), {
      type: 'InvoiceSubmitted',
      data: { pdfSha256: /^[0-9a-f]{64}$/, total: 1875 },
    });
    t.equal((await as(carrier).post(`${url}/submit`, {})).status, 409, 'submitted once');

    // A dispute per line.
    t.equal(
      (await as(carrier).post(`${url}/dispute`, { lines: [{ index: 1, reason: 'x' }] })).status,
      403,
    );
    const noLine = await as(shipper).post(`${url}/dispute`, { lines: [{ index: 5, reason: 'x' }] });
    t.equal(noLine.status, 400);
    t.match(noLine.body.errors, [{ path: 'lines.0.index' }]);
    const noReason = await as(shipper).post(`${url}/dispute`, { lines: [{ index: 1 }] });
    t.equal(noReason.status, 400);
    t.match(noReason.body.errors, [{ path: /lines\.0\.reason/ }]);
    const disputed = await as(shipper).post(`${url}/dispute`, {
      lines: [{ index: 1, reason: 'Our dock log says 2 hours' }],
    });
    t.equal(disputed.status, 200, disputed.text);
    t.match(disputed.body, {
      status: 'disputed',
      lines: [
        { status: 'open', reason: null },
        { status: 'disputed', reason: 'Our dock log says 2 hours' },
      ],
    });
    const answered = await as(carrier).post(`${url}/answer`, { text: 'The geofence shows 3' });
    t.equal(answered.status, 200);
    t.match(answered.body, { status: 'submitted', answer: 'The geofence shows 3' });

    // Approved, scheduled, paid.
    t.equal((await as(carrier).post(`${url}/approve`)).status, 403);
    const approved = await as(shipper).post(`${url}/approve`);
    t.equal(approved.status, 200);
    t.equal(approved.body.status, 'approved');
    const badDate = await as(shipper).post(`${url}/schedule`, { date: 'soon' });
    t.equal(badDate.status, 400);
    t.match(badDate.body.errors, [{ path: 'date' }]);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const scheduled = await as(shipper).post(`${url}/schedule`, { date: tomorrow });
    t.equal(scheduled.status, 200);
    t.match(scheduled.body, { status: 'scheduled', scheduledFor: tomorrow });
    const today = new Date().toISOString().slice(0, 10);
    const noReference = await as(shipper).post(`${url}/pay`, { paidAt: today });
    t.equal(noReference.status, 400);
    t.match(noReference.body.errors, [{ path: 'reference' }]);
    const paid = await as(shipper).post(`${url}/pay`, { reference: 'ACH 555', paidAt: today });
    t.equal(paid.status, 200, paid.text);
    t.match(paid.body, {
      status: 'paid',
      paymentReference: 'ACH 555',
      paidAt: `${today}T00:00:00.000Z`,
    });

    // Not received: open again; paid again, received.
    t.equal((await as(shipper).post(`${url}/receipt`, { received: true })).status, 403);
    const bad = await as(carrier).post(`${url}/receipt`, { received: 'yes' });
    t.equal(bad.status, 400);
    t.match(bad.body.errors, [{ path: 'received' }]);
    const missing = await as(carrier).post(`${url}/receipt`, { received: false });
    t.equal(missing.status, 200);
    t.match(missing.body, { status: 'approved', paidAt: null });
    await as(shipper).post(`${url}/pay`, { reference: 'ACH 556', paidAt: today });
    const received = await as(carrier).post(`${url}/receipt`, { received: true });
    t.equal(received.status, 200);
    t.equal(received.body.status, 'received');
    t.equal((await as(carrier).post(`${url}/receipt`, { received: true })).status, 409);

    // The load's audit trail (and its CSV) carries the invoice's events.
    const history = await as(shipper).get(`/api/loads/${loadId}/history`);
    t.equal(history.status, 200);
    const types = history.body.events.map((entry: { type: string }) => entry.type);
    for (const type of [
      'DeliveryConfirmed',
      'InvoiceDrafted',
      'InvoiceSubmitted',
      'InvoiceDisputed',
      'InvoiceDisputeAnswered',
      'InvoiceApproved',
      'InvoiceScheduled',
      'InvoicePaid',
      'InvoiceReceiptDenied',
      'InvoiceReceiptConfirmed',
    ])
      t.ok(types.includes(type), `the trail has ${type}`);
    const csv = await as(carrier).get(`/api/loads/${loadId}/history?format=csv`);
    t.match(csv.text, /InvoicePaid/);

    // What both sides' screens hear (and, but for the draft and the answer, the webhooks carry).
    const pushes = (await platform.store.readStream(invoiceStream(invoiceId))).events.flatMap(
      (event) => livePushes(event),
    );
    t.same(
      pushes.map((push) => push.event),
      [
        'invoice.drafted',
        'invoice.submitted',
        'invoice.disputed',
        'invoice.answered',
        'invoice.approved',
        'invoice.scheduled',
        'invoice.paid',
        'invoice.received',
        'invoice.paid',
        'invoice.received',
      ],
    );
    for (const push of pushes)
      t.same(
        [...push.rooms].sort(),
        [
          organizationRoom(carrier.organizationId!),
          organizationRoom(shipper.organizationId!),
        ].sort(),
        `${push.event} to both organizations`,
      );
    t.match(pushes[8]?.payload, { status: 'paid', total: 1875 });
    t.match(pushes.at(-3)?.payload, { status: 'approved', received: false });
  },
);

t.test(
  "payment terms from the shipper, the factor's remit-to from the carrier; overdue; silence",
  async (t) => {
    const p = await parties();
    const { shipper, carrier } = p;
    const shipperOrganization = await nameOf(shipper);
    const badTerms = await as(shipper).put('/api/users/organization', {
      name: shipperOrganization.name,
      ...shipperOrganization.contact,
      paymentTermsDays: -1,
    });
    t.equal(badTerms.status, 400);
    t.match(badTerms.body.errors, [{ path: 'paymentTermsDays' }]);
    const setTerms = await as(shipper).put('/api/users/organization', {
      name: shipperOrganization.name,
      ...shipperOrganization.contact,
      paymentTermsDays: 0,
    });
    t.equal(setTerms.status, 200, setTerms.text);
    t.equal((await as(shipper).get('/api/account')).body.organization?.paymentTermsDays, 0);

    const carrierOrganization = await nameOf(carrier);
    const files = createFileStore(platform.database.db);
    const notice = await files.save({
      organizationId: carrier.organizationId!,
      kind: 'noticeOfAssignment',
      mime: 'application/pdf',
      data: Buffer.from('%PDF-1.4 notice'),
    });
    const foreign = await files.save({
      organizationId: shipper.organizationId!,
      kind: 'signature',
      mime: 'image/png',
      data: PNG,
    });
    const body = (factor: unknown, password: string | undefined = PASSWORD) => ({
      name: carrierOrganization.name,
      ...carrierOrganization.contact,
      factor,
      ...(password ? { password } : {}),
    });
    const notOwn = await as(carrier).put(
      '/api/users/organization',
      body({ name: 'Fast Factor', remitTo: 'PO Box 9, Austin TX', noticeFileId: foreign }),
    );
    t.equal(notOwn.status, 400, 'the notice must be a file of the carrier');
    t.match(notOwn.body.errors, [{ path: 'factor.noticeFileId' }]);
    const noName = await as(carrier).put(
      '/api/users/organization',
      body({ name: '', remitTo: 'PO Box 9', noticeFileId: notice }),
    );
    t.equal(noName.status, 400);
    t.match(noName.body.errors, [{ path: /factor\.name/ }]);
    const unconfirmed = await as(carrier).put(
      '/api/users/organization',
      body({ name: 'Fast Factor', remitTo: 'PO Box 9, Austin TX', noticeFileId: notice }, ''),
    );
    t.equal(unconfirmed.status, 400, 'where the carrier is paid changes with its password only');
    t.match(unconfirmed.body.errors, [{ path: 'password' }]);
    const factored = await as(carrier).put(
      '/api/users/organization',
      body({ name: 'Fast Factor', remitTo: 'PO Box 9, Austin TX', noticeFileId: notice }),
    );
    t.equal(factored.status, 200, factored.text);

    const { tourId } = await deliveredWithProof(p, { price: 900 });
    const { invoiceId } = (await as(shipper).post(`/api/tours/${tourId}/confirm-delivery`)).body;
    const draft = (await as(shipper).get(`/api/invoices/${invoiceId}`)).body;
    t.match(draft, {
      number: 'INV-000001',
      termsDays: 0,
      total: 900,
      remitTo: { name: 'Fast Factor', address: 'PO Box 9, Austin TX', factor: true },
      lines: [{ kind: 'linehaul', amount: 900 }],
    });
    const submitted = await as(carrier).post(`/api/invoices/${invoiceId}/submit`, {});
    t.equal(submitted.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const overdue = (await as(carrier).get(`/api/invoices/${invoiceId}`)).body;
    t.equal(overdue.status, 'overdue', 'unpaid past its due date');
    const filtered = await as(carrier).get(
      `/api/invoices?filters=${encodeURIComponent(JSON.stringify([{ name: 'status', value: ['overdue'] }]))}`,
    );
    t.equal(filtered.body.total, 1);
    const unknown = await as(carrier).get(
      `/api/invoices?filters=${encodeURIComponent(JSON.stringify([{ name: 'status', value: ['late'] }]))}`,
    );
    t.equal(unknown.status, 400);
    t.match(unknown.body.errors, [{ path: 'filters' }]);

    // Silence: nothing before ten days, approved by no person after.
    t.equal(await platform.invoiceScheduler.sweep(new Date(Date.now() + 9 * DAY).toISOString()), 0);
    t.equal(
      await platform.invoiceScheduler.sweep(new Date(Date.now() + 11 * DAY).toISOString()),
      1,
    );
    const events = (await platform.store.readStream(invoiceStream(invoiceId))).events;
    t.match(events.at(-1), {
      type: 'InvoiceApproved',
      data: { bySilence: true, approvedBy: null },
    });
  },
);

t.test('no proof of delivery, no confirmation; numbers go on per carrier', async (t) => {
  const p = await parties();
  const { shipper, carrier, driver } = p;
  const { tourId } = await steps.tourAt('inTransit', { shipper, carrier, driver });
  const refused = await as(shipper).post(`/api/tours/${tourId}/confirm-delivery`);
  t.equal(refused.status, 409);
  t.match(refused.body.message, /proof of delivery/);

  const first = await deliveredWithProof(p);
  const second = await deliveredWithProof(p);
  const [a, b] = await Promise.all([
    as(shipper).post(`/api/tours/${first.tourId}/confirm-delivery`),
    as(shipper).post(`/api/tours/${second.tourId}/confirm-delivery`),
  ]);
  t.equal(a.status, 200);
  t.equal(b.status, 200);
  const numbers = (await as(carrier).get('/api/invoices')).body.data
    .map((row: { number: string }) => row.number)
    .sort();
  t.same(numbers, ['INV-000001', 'INV-000002'], 'unique, even drafted at once');
});
