/**
 * An invoice from the delivery to the carrier's receipt, and what it does to the shipper's name as
 * a payer. Lakefront Dairy Co-op (the demo's shipper3) has paid two invoices so far: carriers see it
 * as a "New payer". Through the API it ships a load with the second demo carrier, whose driver runs
 * it to the last stop and records a proof of delivery, and it posts another load that stays open on
 * the marketplace (the carrier's row reads "New payer"). In the browsers: the shipper confirms the
 * delivery, which drafts the carrier's invoice; the carrier opens it on Invoices (its line haul and
 * total) and submits it; the shipper approves it, the Aging screens of both sides count it among the
 * open invoices, the shipper records the payment, and the carrier confirms the money arrived. Each
 * step shows the invoice's status on both sides. With a third invoice paid, the carrier's
 * marketplace row of the open load reads "Pays in ~N days" instead. axe runs on each screen.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { pngImage } from '../server/integrations/pdf/testing.ts';
import { CHICAGO, INDIANAPOLIS, loadBody, stop } from '../server/testing/loadBodies.ts';
import { demo, Journey, openPage, pdf, signIn, withBrowser } from './harness.ts';
import { rowAction, rowWith, toastSaying } from './steps.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DESKTOP = { viewport: { width: 1366, height: 900 }, locale: 'en-US' };
const tag = Date.now().toString(36).toUpperCase();
/** The shipment's reference and the open load's commodity, this run's own. */
const REFERENCE = `PO-INV-${tag}`;
const OPEN_COMMODITY = `Cheddar ${tag}`;
const PRICE = 1250;
const PAYMENT_REFERENCE = `ACH-${tag}`;
/** Lakefront Dairy Co-op, the demo's new payer (README "Demo accounts"). */
const shipper3 = { email: 'shipper3@demo.freight.local', password: 'demo12345' };

type Account = { email: string; password: string };
type Aging = { buckets: { label: string; count: number; amount: number }[]; side: string };
type Payer = { medianDaysToPay: number | null; status: 'new' | 'measured' };

const iso = (at: number) => new Date(at).toISOString();

async function login(url: string, account: Account) {
  const response = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`login ${account.email}: ${response.status}`);
  const { accessToken, user } = (await response.json()) as {
    accessToken: string;
    user: { id: string };
  };
  return { token: accessToken, userId: user.id };
}

const apiOf =
  (url: string) =>
  async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
    const form = body instanceof FormData;
    const response = await fetch(`${url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };

/** Waits until `read` answers something `done` accepts (the read models follow the log shortly after). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The status tag (a PrimeReact Tag) reading `status` inside `scope`. */
const tagSaying = (scope: Locator, status: string) =>
  scope.locator('.p-tag').filter({ hasText: new RegExp(`^${status}$`) });

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('invoices');
  const api = apiOf(server.url);
  const contexts: BrowserContext[] = [];
  let openLoadId = '';

  /** What the journey changed goes back while its server runs: the open load is canceled. */
  const cleanUp = (t: Test) =>
    t.test('the journey puts back what it changed', async (t) => {
      if (openLoadId) {
        const { token } = await login(server.url, shipper3);
        const canceled = await fetch(`${server.url}/api/loads/${openLoadId}/status`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 7, message: 'End of the journey' }),
        });
        t.equal(canceled.status, 200, 'the open load canceled');
      }
      for (const each of contexts) await each.close().catch(() => undefined);
    });

  const desk = async (account: Account) => {
    const context = await browser.newContext({ ...DESKTOP, timezoneId: 'America/Chicago' });
    contexts.push(context);
    const opened = await openPage(context);
    await signIn(opened.page, server.url, account.email, account.password);
    return opened;
  };

  // Each step needs the one before: after a failure the rest are skipped, saying why.
  let broken = false;
  const step = (name: string, body: (t: Test) => Promise<void>) =>
    broken
      ? t.test(name, { skip: 'an earlier step did not complete' }, async () => undefined)
      : t.test(name, async (t) => {
          try {
            await body(t);
          } catch (error) {
            broken = true;
            throw error;
          }
        });

  const shipperApi = await login(server.url, shipper3);
  const carrierApi = await login(server.url, demo.carrier2);
  const driverApi = await login(server.url, demo.driver2);
  let loadId = '';
  let loadGuid = '';
  let tourId = '';
  let shipperOrganizationId = '';

  const agingOf = (token: string) => api<Aging>('GET', '/insights/aging', token);
  const current = (aging: Aging) => aging.buckets.find((bucket) => bucket.label === 'current')!;
  let carrierAgingBefore: Aging | null = null;
  let shipperAgingBefore: Aging | null = null;

  /** The marketplace of a carrier, searched for the open load: its row. */
  const marketplaceRow = async (page: Page) => {
    await page.goto(`${server.url}/loads/carrier`);
    await page.getByRole('searchbox', { name: 'Search' }).fill(OPEN_COMMODITY);
    const row = rowWith(page, OPEN_COMMODITY).first();
    await row.waitFor({ timeout: 30_000 });
    return row;
  };

  /** Opens the invoice of this journey's load on /invoices: its dialog. */
  const openInvoice = async (page: Page, status: string) => {
    await page.goto(`${server.url}/invoices`);
    await page.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor({ timeout: 30_000 });
    const row = rowWith(page, loadGuid).first();
    await tagSaying(row, status).waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: /^Open invoice INV-/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Invoice INV-/ });
    await tagSaying(dialog, status).waitFor({ timeout: 30_000 });
    return { row, dialog };
  };

  /** Closes an invoice's dialog by its footer's Close (the header's cross is named Close too). */
  const close = async (dialog: Locator) => {
    await dialog.locator('.p-dialog-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
  };

  /**
   * Takes a step in the invoice's dialog (a button, perhaps a form, then Send) until the dialog
   * shows `after`. An invoice event over the socket opens the dialog afresh (a form half-filled is
   * gone), so the step is taken again should that happen in between.
   */
  const act = async (
    dialog: Locator,
    action: string,
    after: string,
    form?: (dialog: Locator) => Promise<string>,
  ) => {
    for (let attempt = 1; ; attempt++) {
      try {
        if (await tagSaying(dialog, after).isVisible()) return;
        await dialog.getByRole('button', { name: action, exact: true }).click({ timeout: 10_000 });
        if (form) {
          const send = await form(dialog);
          await dialog.getByRole('button', { name: send, exact: true }).click({ timeout: 5_000 });
        }
        await tagSaying(dialog, after).waitFor({ timeout: 15_000 });
        return;
      } catch (error) {
        if (attempt >= 3) {
          const shown = await dialog.innerText({ timeout: 1_000 }).catch(() => '(no dialog)');
          throw new Error(`${action}: the dialog shows ${shown}`, { cause: error });
        }
      }
    }
  };

  try {
    // Both desks signed in first: the root test ends once idle between its steps.
    const shipper = await desk(shipper3);
    const carrier = await desk(demo.carrier2);

    await step(
      'through the API: a shipment of the new payer delivered with a proof, and an open load of it',
      async (t) => {
        const account = await api<{ organization: { id: string } }>(
          'GET',
          '/account',
          shipperApi.token,
        );
        shipperOrganizationId = account.organization.id;
        const before = await api<Payer & { paidCount: number }>(
          'GET',
          `/insights/payers/${shipperOrganizationId}`,
          carrierApi.token,
        );
        t.match(before, { status: 'new', paidCount: 2 }, 'Lakefront Dairy Co-op: 2 paid, new');

        const pickupAt = Math.ceil((Date.now() + 30 * MINUTE) / MINUTE) * MINUTE;
        const posted = await api<{ id: string; guid: string }>('POST', '/loads', shipperApi.token, {
          ...loadBody({
            pickupTimestampStart: iso(pickupAt),
            dropOffTimestampStart: iso(pickupAt + 4 * HOUR),
            expiration: iso(pickupAt),
            commodity: 'Butter',
            refNumber: REFERENCE,
            locations: [
              stop(CHICAGO, 1, 'Lakefront creamery'),
              stop(INDIANAPOLIS, 4, 'Circle City grocers DC'),
            ],
          }),
        });
        loadId = posted.id;
        loadGuid = posted.guid;
        const offer = await api<{ id: string }>('POST', `/proposal/${loadId}`, carrierApi.token, {
          price: PRICE,
          message: 'Reefer in Chicago today',
        });
        await api('PUT', `/proposal/${offer.id}`, shipperApi.token, { status: 5 });
        tourId = (await api<{ tourId: string }>('GET', `/loads/${loadId}`, shipperApi.token))
          .tourId;
        const contract = new FormData();
        contract.append('status', '14');
        contract.append(
          'contract',
          new Blob([new Uint8Array(await pdf(`Rate confirmation ${REFERENCE}`))], {
            type: 'application/pdf',
          }),
          'signed.pdf',
        );
        await api('POST', `/proposal/load/${loadId}`, carrierApi.token, contract);
        await api('POST', `/tours/${tourId}/assign/${driverApi.userId}`, carrierApi.token);
        for (const status of [3, 9])
          await api('PUT', `/tours/${tourId}/status`, driverApi.token, { status, message: '' });
        // The truck at the pickup, then at the last stop: the geofence records the arrivals.
        const at = (place: typeof CHICAGO, when: number) => ({
          latitude: place.latitude,
          longitude: place.longitude,
          speed: 0,
          heading: 0,
          recordedAt: iso(when),
        });
        await api('POST', `/tours/${tourId}/positions`, driverApi.token, [
          at(CHICAGO, Date.now() - 2 * MINUTE),
          at(INDIANAPOLIS, Date.now() - MINUTE),
        ]);
        await until(
          () =>
            api<{ stops: { arrived: boolean }[] }>(
              'GET',
              `/tours/track/${tourId}`,
              driverApi.token,
            ),
          (track) => track.stops.at(-1)?.arrived === true,
          'the arrival at the last stop',
        );
        const proof = new FormData();
        proof.append('data', JSON.stringify({ receivedBy: 'Dana Dock', note: '22 pallets' }));
        proof.append(
          'photo',
          new Blob([new Uint8Array(pngImage(64, 48, () => [200, 180, 140]))], {
            type: 'image/png',
          }),
          'pallets.png',
        );
        await api('POST', `/tours/${tourId}/pod`, driverApi.token, proof);
        await api('PUT', `/tours/${tourId}/status`, driverApi.token, { status: 10, message: '' });
        t.pass('delivered with a proof, waiting for the shipper to confirm');

        const open = await api<{ id: string }>('POST', '/loads', shipperApi.token, {
          ...loadBody({ commodity: OPEN_COMMODITY, refNumber: `PO-OPEN-${tag}` }),
        });
        openLoadId = open.id;
        carrierAgingBefore = await agingOf(carrierApi.token);
        shipperAgingBefore = await agingOf(shipperApi.token);
      },
    );

    await step("the carrier's marketplace row of the open load reads New payer", async (t) => {
      const row = await marketplaceRow(carrier.page);
      await row.getByText('New payer').waitFor();
      t.notOk(await row.getByText(/Pays in/).isVisible(), 'no days to pay yet');
      await journey.check(t, carrier.page, 'carrier-marketplace-new-payer');
    });

    await step('the shipper confirms the delivery; the invoice is drafted', async (t) => {
      await shipper.page.goto(
        `${server.url}/loads/shipper?page=1&pageSize=5&search=${encodeURIComponent(REFERENCE)}`,
      );
      await rowAction(shipper.page, loadGuid, 'Confirm delivery');
      const confirmation = shipper.page.getByRole('dialog');
      await confirmation
        .locator('.pod-view')
        .getByText(/Received by Dana Dock/)
        .waitFor({ timeout: 15_000 });
      await confirmation.getByRole('button', { name: 'Confirm delivery' }).click();
      await confirmation.waitFor({ state: 'detached', timeout: 20_000 });
      await rowWith(shipper.page, loadGuid)
        .first()
        .getByText('Delivered', { exact: true })
        .waitFor({ timeout: 30_000 });
      t.pass('the load reads Delivered');

      // The shipper's Invoices: the draft is not the shipper's to act on yet.
      const { dialog } = await openInvoice(shipper.page, 'Draft');
      t.equal(
        await dialog.getByRole('button', { name: 'Approve' }).count(),
        0,
        'nothing to approve on a draft',
      );
      await close(dialog);
    });

    await step('the carrier opens the drafted invoice and submits it', async (t) => {
      const { row, dialog } = await openInvoice(carrier.page, 'Draft');
      t.match(await row.textContent(), /Lakefront Dairy Co-op/, 'billed to Lakefront Dairy Co-op');
      const lines = dialog.locator('table.invoice-lines tbody tr');
      await lines.first().waitFor();
      t.same(
        (await lines.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()),
        ['Line haul $1,250.00', 'Total $1,250.00'],
        'the line haul at the agreed price, and the total',
      );
      await journey.check(t, carrier.page, 'carrier-invoice-draft');
      await act(dialog, 'Submit invoice', 'Submitted', async (dialog) => {
        await dialog.getByLabel('Your reference (optional)').fill(`BOL-${tag}`);
        return 'Submit invoice';
      });
      await toastSaying(carrier.page, 'Invoice submitted').waitFor({ timeout: 15_000 });
      await dialog.getByText(`Carrier reference: BOL-${tag}`).waitFor();
      await dialog.getByRole('button', { name: 'Open the PDF' }).waitFor();
      t.pass('submitted, with its reference and PDF');
      await close(dialog);
      await tagSaying(row, 'Submitted').waitFor({ timeout: 15_000 });
      await journey.check(t, carrier.page, 'carrier-invoices-submitted');
    });

    await step('the shipper approves it', async (t) => {
      const { row, dialog } = await openInvoice(shipper.page, 'Submitted');
      await dialog.getByText('Line haul').waitFor();
      await journey.check(t, shipper.page, 'shipper-invoice-submitted');
      await act(dialog, 'Approve', 'Approved');
      await toastSaying(shipper.page, 'Invoice approved').waitFor({ timeout: 15_000 });
      await close(dialog);
      await tagSaying(row, 'Approved').waitFor({ timeout: 15_000 });
      t.pass("the shipper's list reads Approved");
      await carrier.page.goto(`${server.url}/invoices`);
      await tagSaying(rowWith(carrier.page, loadGuid).first(), 'Approved').waitFor({
        timeout: 30_000,
      });
      t.pass("the carrier's list reads Approved");
    });

    await step('the Aging screens of both sides count the open invoice', async (t) => {
      for (const [who, page, token, before, heading] of [
        ['carrier', carrier.page, carrierApi.token, carrierAgingBefore!, /^Receivables/],
        ['shipper', shipper.page, shipperApi.token, shipperAgingBefore!, /^Payables/],
      ] as const) {
        const aging = await agingOf(token);
        t.equal(
          current(aging).count,
          current(before).count + 1,
          `${who}: one more current invoice than before the submission`,
        );
        await page.goto(`${server.url}/insights/aging`);
        await page.getByRole('heading', { name: heading }).waitFor({ timeout: 30_000 });
        const table = page.locator('table.aging-table');
        const shown = await table
          .locator('tbody tr')
          .evaluateAll((rows) =>
            rows.map((row) => [
              row.querySelector('th')?.textContent?.trim(),
              row.querySelector('td')?.textContent?.trim(),
            ]),
          );
        t.same(
          shown,
          [
            ['Current', String(current(aging).count)],
            ['1–30 days', String(aging.buckets[1]!.count)],
            ['31–60 days', String(aging.buckets[2]!.count)],
            ['61–90 days', String(aging.buckets[3]!.count)],
            ['Over 90 days', String(aging.buckets[4]!.count)],
          ],
          `${who}: the buckets and their counts, this invoice among the current ones`,
        );
        t.ok(
          await page
            .getByRole('img', { name: 'Open invoice amounts by days past due' })
            .isVisible(),
          `${who}: the chart`,
        );
        await journey.check(t, page, `${who}-aging`);
      }
    });

    await step('the shipper records the payment; the carrier confirms the receipt', async (t) => {
      const { row, dialog } = await openInvoice(shipper.page, 'Approved');
      await act(dialog, 'Record payment', 'Paid', async (dialog) => {
        await dialog.getByLabel('Payment reference').fill(PAYMENT_REFERENCE);
        // The bank's date: today, the day of the submission (a later day would be in the future).
        t.equal(
          await dialog.getByLabel('Paid on').inputValue(),
          new Date().toISOString().slice(0, 10),
          'paid on today by default',
        );
        await journey.check(t, shipper.page, 'shipper-record-payment');
        return 'Send';
      });
      await toastSaying(shipper.page, 'Payment recorded').waitFor({ timeout: 15_000 });
      await dialog.getByText(new RegExp(`^Paid on .*\\(${PAYMENT_REFERENCE}\\)$`)).waitFor();
      await close(dialog);
      await tagSaying(row, 'Paid').waitFor({ timeout: 15_000 });
      t.pass("the shipper's list reads Paid");

      const opened = await openInvoice(carrier.page, 'Paid');
      await opened.dialog.getByText(new RegExp(`\\(${PAYMENT_REFERENCE}\\)`)).waitFor();
      await journey.check(t, carrier.page, 'carrier-invoice-paid');
      await act(opened.dialog, 'Payment received', 'Received');
      await toastSaying(carrier.page, 'Receipt confirmed').waitFor({ timeout: 15_000 });
      await close(opened.dialog);
      await tagSaying(opened.row, 'Received').waitFor({ timeout: 15_000 });
      t.pass("the carrier's list reads Received");
      await shipper.page.reload();
      await tagSaying(rowWith(shipper.page, loadGuid).first(), 'Received').waitFor({
        timeout: 30_000,
      });
      t.pass("the shipper's list reads Received");
      await journey.check(t, shipper.page, 'shipper-invoices-received');
    });

    await step(
      "with a third invoice paid, the open load's row reads Pays in ~N days",
      async (t) => {
        const payer = await until(
          () =>
            api<Payer & { paidCount: number }>(
              'GET',
              `/insights/payers/${shipperOrganizationId}`,
              carrierApi.token,
            ),
          (figures) => figures.status === 'measured',
          "the shipper's figures",
        );
        t.equal(payer.paidCount, 3, 'three invoices paid');
        const days = Math.round(payer.medianDaysToPay!);
        t.equal(days, 12, 'the median of 14, 12 and 0 days');
        const row = await marketplaceRow(carrier.page);
        await row.getByText(`Pays in ~${days} days`).waitFor({ timeout: 15_000 });
        t.equal(await row.getByText('New payer').count(), 0, 'no longer a new payer');
        await journey.check(t, carrier.page, 'carrier-marketplace-pays-in');

        // The carrier's receivables: the invoice left the open ones.
        const aging = await agingOf(carrierApi.token);
        t.equal(current(aging).count, current(carrierAgingBefore!).count, 'paid: no longer open');
        t.same([...shipper.errors, ...carrier.errors], [], 'no page errors');
      },
    );
  } finally {
    // A step that failed: the server's last words, to tell a product failure from the journey's.
    if (broken) t.comment(`server output:\n${server.output().slice(-4_000)}`);
    await cleanUp(t);
    journey.summary(t);
  }
});
