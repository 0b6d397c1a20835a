/**
 * EDI on the shipper's Account settings, from the tender to the delivery. The demo shipper's
 * manager registers a trading partner on the EDI tab (mailbox delivery) and sees its API key once.
 * The partner's TMS sends a 204 with that key: the tab, refreshed, lists the 204 received
 * (Accepted, with its load) and the 997 sent, and shows the X12 text of the 204. A carrier books
 * the load (an offer accepted), its driver runs the tour through the API, and the tab lists the 990
 * and the four 214s after the 204 and the 997, in the order things happened, their codes in words.
 * A 204 with a date that is not one is answered by a 997, and the tab shows the 204 Rejected with
 * the error in words. axe runs on each screen, in the product's dark theme.
 */
import { DateTime } from 'luxon';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { apiToken, demo, Journey, openPage, pdf, signIn, withBrowser } from './harness.ts';

const OUR_ID = 'FREIGHTMKT';
const tag = Date.now().toString(36).toUpperCase();
const partnerName = `Lakeshore TMS ${tag}`;
/** The partner's interchange and group id (at most 15 characters). */
const partnerId = `LTMS${tag}`.slice(0, 15);
const shipmentId = `EDI-${tag}`;
const DESKTOP = { viewport: { width: 1440, height: 900 }, locale: 'en-US' };

/** A date some days ahead, as CCYYMMDD. */
const ahead = (days: number) => DateTime.utc().plus({ days }).toFormat('yyyyLLdd');

/** One interchange holding one 204 (a new tender, `00`): Gary, IN to Chicago, IL. */
function tender(options: { shipment: string; control: number; pickupDate?: string }): string {
  const control = String(options.control).padStart(9, '0');
  const body = [
    `B2**FRMK**${options.shipment}**PP`,
    'B2A*00',
    'N7**TRL1*********TL',
    'L5*1*STEEL COILS',
    'S5*1*LD*38000*L',
    `G62*69*${options.pickupDate ?? ahead(5)}*I*0700*LT`,
    'N1*SF*NORTH DOCK',
    'N3*1 MAIN ST',
    'N4*GARY*IN*46402*US',
    'S5*2*UL',
    `G62*70*${ahead(7)}*I*1500*CT`,
    'N1*ST*SOUTH DOCK',
    'N3*2 MAIN ST',
    'N4*CHICAGO*IL*60601*US',
  ];
  const now = DateTime.utc();
  return `${[
    `ISA*00*          *00*          *ZZ*${partnerId.padEnd(15)}*ZZ*${OUR_ID.padEnd(15)}*${now.toFormat('yyLLdd')}*${now.toFormat('HHmm')}*U*00401*${control}*0*P*>`,
    `GS*SM*${partnerId}*${OUR_ID}*${now.toFormat('yyyyLLdd')}*${now.toFormat('HHmm')}*${options.control}*X*004010`,
    'ST*204*0001',
    ...body,
    `SE*${body.length + 2}*0001`,
    `GE*1*${options.control}`,
    `IEA*1*${control}`,
  ].join('~\n')}~`;
}

type InboundAnswer = {
  interchangeControlNumber: string | null;
  transactions: {
    setControlNumber: string;
    result: 'accepted' | 'rejected';
    loadId?: string;
    errors?: { segment: string; element: number | null; reason: string }[];
  }[];
};
type DocumentRow = { type: string; direction: string; loadId: string | null; code: string | null };

async function call<T>(url: string, method: string, path: string, token: string, body?: unknown) {
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
}

/** Signs in through the API: the token and the user's id. */
async function login(url: string, account: { email: string; password: string }) {
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

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('edi');
  const contexts: BrowserContext[] = [];
  let apiKey = '';
  let loadId = '';
  let loadGuid = '';

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

  const send = async (text: string) => {
    const response = await fetch(`${server.url}/api/edi/inbound`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/edi-x12' },
      body: text,
    });
    return { status: response.status, json: (await response.json()) as InboundAnswer };
  };
  const shipperToken = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
  /** The documents of this journey's load, oldest first, once `count` of them are there. */
  const documentsOfLoad = async (count: number): Promise<DocumentRow[]> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const page = await call<{ data: DocumentRow[] }>(
        server.url,
        'GET',
        `/edi/documents?page=1&pageSize=50&search=${loadId}`,
        shipperToken,
      );
      const rows = page.data.filter((row) => row.loadId === loadId).reverse();
      if (rows.length >= count) return rows;
      if (Date.now() > deadline)
        throw new Error(`${rows.length} documents of the load, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  try {
    const context = await browser.newContext(DESKTOP);
    contexts.push(context);
    const { page, errors } = await openPage(context);
    const table = (page: Page) => page.locator('table.edi-documents');
    /** The rows of this journey's partner, top (newest) to bottom. */
    const partnerRows = (page: Page): Locator =>
      table(page).locator('tbody tr').filter({ hasText: partnerName });
    const refresh = async () => {
      await page.getByRole('button', { name: 'Refresh the documents' }).click();
    };

    await step(
      'the shipper registers a trading partner on the EDI tab and sees its key once',
      async (t) => {
        await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
        await page.getByRole('button', { name: /^User menu of / }).click();
        await page.getByRole('menuitem', { name: 'My account' }).click();
        await page.getByRole('dialog').getByRole('tab', { name: 'EDI' }).click();
        const form = page.getByRole('form', { name: 'Add a trading partner' });
        await form.waitFor();
        await journey.check(t, page, 'edi-tab');

        await form.getByLabel('Name').fill(partnerName);
        t.equal(await form.getByLabel('ISA qualifier').inputValue(), 'ZZ', 'ZZ by default');
        await form.getByLabel('ISA id').fill(partnerId);
        await form.getByLabel('GS id').fill(partnerId);
        t.ok(
          await form.getByLabel('Mailbox (the partner fetches them)').isChecked(),
          'the mailbox is the default delivery',
        );
        await form.getByRole('button', { name: 'Add partner' }).click();

        const keyDialog = page.getByRole('dialog', { name: "The partner's API key" });
        apiKey = (await keyDialog.getByTestId('edi-api-key').textContent())!.trim();
        t.match(apiKey, /^edi_[A-Za-z0-9_-]{43}$/, 'the API key is shown');
        t.match(
          await keyDialog.textContent(),
          'it is shown only once',
          'with the word that it is shown once',
        );
        t.equal(await keyDialog.getByTestId('edi-signing-secret').count(), 0, 'no secret');
        await journey.check(t, page, 'edi-key-once');
        await keyDialog.getByRole('button', { name: 'Done' }).click();
        await keyDialog.waitFor({ state: 'detached' });

        const partner = page
          .getByRole('list', { name: 'Trading partners' })
          .getByRole('listitem')
          .filter({ hasText: partnerName });
        await partner.waitFor();
        t.match(await partner.textContent(), `ISA ZZ/${partnerId} · GS ${partnerId}`);
        t.equal(
          (await page.content()).includes(apiKey),
          false,
          'the key is nowhere on the screen once the dialog is closed',
        );
      },
    );

    await step(
      'a 204 sent with the key: the tab shows it accepted with its load, the 997 and the X12 text',
      async (t) => {
        const answer = await send(tender({ shipment: shipmentId, control: 101 }));
        t.equal(answer.status, 202);
        t.match(answer.json.transactions, [{ setControlNumber: '0001', result: 'accepted' }]);
        loadId = answer.json.transactions[0]!.loadId!;
        const load = await call<{ guid: string; refNumber?: string }>(
          server.url,
          'GET',
          `/loads/${loadId}`,
          shipperToken,
        );
        loadGuid = load.guid;

        await refresh();
        const received = partnerRows(page).filter({ hasText: 'Received' });
        await received.first().waitFor();
        t.same(
          await received
            .first()
            .locator('td')
            .evaluateAll((cells) => cells.slice(1, 7).map((cell) => cell.textContent?.trim())),
          ['Received', '204', loadGuid, partnerName, '0001', 'Accepted'],
          'the 204 received, accepted, with its load',
        );
        const ack = partnerRows(page).filter({ hasText: '997' });
        await ack.first().waitFor();
        t.match(
          await ack.first().textContent(),
          /Sent997.*In the mailbox/,
          'the 997 sent, waiting in the mailbox',
        );

        await received
          .first()
          .getByRole('button', { name: 'View the X12 text of 204 0001' })
          .click();
        const raw = page.getByTestId('edi-raw');
        await raw.waitFor();
        const text = (await raw.textContent()) ?? '';
        t.match(text, `ISA*00*          *00*          *ZZ*${partnerId}`, 'the interchange');
        t.match(text, `\nB2**FRMK**${shipmentId}**PP~\n`, 'one segment a line');
        await journey.check(t, page, 'edi-raw-204');
        await page.keyboard.press('Escape');
        await raw.waitFor({ state: 'detached' });
        await journey.check(t, page, 'edi-204-accepted');
      },
    );

    await step(
      'a carrier books the load and its driver runs the tour: the 990 and the 214s, in order, in words',
      async (t) => {
        const carrierToken = await apiToken(
          server.url,
          demo.carrier2.email,
          demo.carrier2.password,
        );
        const driver = await login(server.url, demo.driver2);
        const driverToken = driver.token;
        const offer = await call<{ id: string }>(
          server.url,
          'POST',
          `/proposal/${loadId}`,
          carrierToken,
          { price: 1850, message: 'Flatbed at Gary on the day' },
        );
        await call(server.url, 'PUT', `/proposal/${offer.id}`, shipperToken, { status: 5 });
        const { tourId } = await call<{ tourId: string }>(
          server.url,
          'GET',
          `/loads/${loadId}`,
          shipperToken,
        );
        const contract = new FormData();
        contract.append('status', '14');
        contract.append(
          'contract',
          new Blob([new Uint8Array(await pdf(`Rate confirmation ${shipmentId}`))], {
            type: 'application/pdf',
          }),
          'signed.pdf',
        );
        await call(server.url, 'POST', `/proposal/load/${loadId}`, carrierToken, contract);
        await call(server.url, 'POST', `/tours/${tourId}/assign/${driver.userId}`, carrierToken);
        const status = (token: string, to: number, message = '') =>
          call(server.url, 'PUT', `/tours/${tourId}/status`, token, { status: to, message });
        await status(driverToken, 3, 'Rolling to Gary');
        const { stops } = await call<{ stops: { id: string }[] }>(
          server.url,
          'GET',
          `/tours/track/${tourId}`,
          driverToken,
        );
        const [pickup, delivery] = [stops[0]!, stops[stops.length - 1]!];
        for (const [type, stop] of [
          ['arrived', pickup],
          ['departed', pickup],
          ['arrived', delivery],
        ] as const)
          await call(server.url, 'POST', `/tours/${tourId}/events`, driverToken, {
            type,
            message: '',
            stopId: stop.id,
          });
        await status(driverToken, 9);
        await status(driverToken, 10);
        await status(shipperToken, 4);

        // The reactor writes the documents after the events: once they are all there, the tab is refreshed.
        const documents = await documentsOfLoad(6);
        t.same(
          documents.map((row) => `${row.direction} ${row.type} ${row.code ?? ''}`.trim()),
          ['in 204', 'out 990 A', 'out 214 X3', 'out 214 AF', 'out 214 X1', 'out 214 D1'],
          "the load's documents by the API, oldest first",
        );
        await refresh();
        await partnerRows(page).filter({ hasText: '(D1)' }).waitFor();
        // The table lists the newest first: read bottom up, the flow in the order it happened.
        const flow = (
          await partnerRows(page)
            .filter({ hasText: new RegExp(`${loadGuid}|Sent997`) })
            .evaluateAll((rows) =>
              rows.map((row) => {
                const cells = [...row.querySelectorAll('td')].map(
                  (cell) => cell.textContent?.trim() ?? '',
                );
                return `${cells[1]} ${cells[2]} · ${cells[6]}`;
              }),
            )
        ).reverse();
        t.same(
          flow,
          [
            'Received 204 · Accepted',
            'Sent 997 · In the mailbox',
            'Sent 990Tender accepted (A) · In the mailbox',
            'Sent 214Arrived at pickup (X3) · In the mailbox',
            'Sent 214Departed pickup (AF) · In the mailbox',
            'Sent 214Arrived at delivery (X1) · In the mailbox',
            'Sent 214Delivered (D1) · In the mailbox',
          ],
          'the tab: the 204, the 997, the 990 and the 214s in order, their codes in words',
        );
        await journey.check(t, page, 'edi-flow');
      },
    );

    await step(
      'a malformed 204 is answered by a 997; the tab shows it rejected, the error in words',
      async (t) => {
        const answer = await send(
          tender({ shipment: `${shipmentId}-BAD`, control: 102, pickupDate: '20261399' }),
        );
        t.equal(answer.status, 202);
        t.match(answer.json.transactions, [
          { result: 'rejected', errors: [{ segment: 'G62', element: 2 }] },
        ]);
        t.notOk(answer.json.transactions[0]!.loadId, 'no load posted');
        await refresh();
        const rejected = partnerRows(page).filter({ hasText: 'Rejected' }).first();
        await rejected.waitFor();
        t.match(await rejected.locator('td').nth(6).textContent(), 'Rejected', 'the 204 rejected');
        t.equal(
          (await rejected.locator('.edi-errors li').textContent())?.trim(),
          'Element G6202 (segment 7): The date 20261399 is not a date (CCYYMMDD)',
          'the error in words: where and why',
        );
        const rows = partnerRows(page);
        t.match(
          await rows.first().textContent(),
          /Sent997/,
          'and the 997 answering it is the newest document',
        );
        await rows
          .first()
          .getByRole('button', { name: /^View the X12 text of 997/ })
          .click();
        const raw = page.getByTestId('edi-raw');
        await raw.waitFor();
        t.match(await raw.textContent(), /AK5\*R\*5~\nAK9\*R\*1\*1\*0~/, 'the 997 rejects the set');
        await page.keyboard.press('Escape');
        await raw.waitFor({ state: 'detached' });
        await rejected.scrollIntoViewIfNeeded();
        await journey.check(t, page, 'edi-204-rejected');
        t.same(errors, [], 'no page errors');
      },
    );
  } finally {
    // The partner has no delete call and the load is a delivered shipment: both stay in this
    // journey's own server, whose data folder goes with it.
    for (const each of contexts) await each.close().catch(() => undefined);
    journey.summary(t);
  }
});
