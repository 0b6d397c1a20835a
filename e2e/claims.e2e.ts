/**
 * Detention at a delivery, from the dock to the Superadmin's decision. The demo shipper posts a
 * load (Chicago to Indianapolis, 2 h free at delivery, detention $75 an hour) that the second demo
 * carrier books and its driver takes, all through the API. Hours have to pass for detention: the
 * server's clock is moved forward (e2e/serverClock.ts) and the browsers' with it (Playwright's
 * clock), and the driver's phone sends the day's positions as it would after a dead zone, each
 * with the time it was taken: the pickup, the road, the delivery 5 minutes before the appointment
 * and the truck standing there. Three hours after the appointment the detention clock, on the
 * driver's page and on the shipper's tracking screen, shows the time on site and since when
 * detention runs. The truck leaves (a position outside the delivery's geofence): within a minute,
 * without a reload, the shipper's claims panel shows the detention claim the platform made, 1 h
 * over at the terms' rate, with its evidence (appointment, arrival, departure, positions inside).
 * The shipper disputes it with a reason, the carrier's dispatcher (its screen open) sees the
 * dispute and answers, the Superadmin reads both and settles at a lower amount, and the shipper's
 * screen shows the settlement.
 */
import type { Browser, Page } from 'playwright-core';
import t from 'tap';
import { CHICAGO, INDIANAPOLIS, loadBody, stop } from '../server/testing/loadBodies.ts';
import { demo, Journey, openPage, pdf, signIn, withBrowser } from './harness.ts';
import { moveServerClock, removeServerClock, serverClockEnv } from './serverClock.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
const DESK = { viewport: { width: 1366, height: 900 }, locale: 'en-US' };
/** The terms of the load: 2 h free at each end, $75 an hour of detention. */
const TERMS = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 75,
  detentionCap: 600,
};
const HELD_HOURS = 3;
/** The delivery's zone (Indianapolis keeps New York's time). */
const DROPOFF_ZONE = 'America/New_York';
/** The claim must reach the shipper's screen this soon after the truck left. */
const CLAIM_MS = 60_000;
const REASON = 'Our dock log shows the truck released at 2 h 30 on site';
const ANSWER = 'The geofence recorded 3 hours at the door; the gate log is behind';
const NOTE = 'Split: the dock log and the geofence disagree by 30 minutes';

const clockEnv = serverClockEnv();
t.teardown(() => removeServerClock(clockEnv));
const iso = (at: number) => new Date(at).toISOString();

type Api = <T>(method: string, path: string, token: string, body?: unknown) => Promise<T>;
const apiOf =
  (url: string): Api =>
  async <T>(method: string, path: string, token: string, body?: unknown) => {
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
  const { iat } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
    iat: number;
  };
  return { token: accessToken, userId: user.id, serverTime: iat * 1000 };
}

type Claim = {
  id: string;
  kind: string;
  minutes: number;
  amount: number;
  status: string;
  evidence: {
    arrivedAt: string;
    leftAt: string;
    appointmentAt: string;
    positionsInside: { at: string }[];
  };
  settledAmount: number | null;
};

await withBrowser(
  t,
  async (server, browser: Browser) => {
    const journey = new Journey('claims');
    t.teardown(() => journey.summary(t));
    const api = apiOf(server.url);

    await t.test(
      'held 3 hours at the delivery: the clock, the claim, the dispute, the answer, the settlement',
      async (t) => {
        // The shipment, booked and dispatched through the API, today.
        const shipper = await login(server.url, demo.shipper);
        const carrier = await login(server.url, demo.carrier2);
        const driver = await login(server.url, demo.driver2);
        const pickupAt = Math.ceil((Date.now() + 10 * MINUTE) / MINUTE) * MINUTE;
        const appointment = pickupAt + 3.5 * HOUR;
        const posted = await api<{ id: string; guid: string }>('POST', '/loads', shipper.token, {
          ...loadBody({
            pickupTimestampStart: iso(pickupAt),
            dropOffTimestampStart: iso(appointment),
            expiration: iso(pickupAt),
            dropoffTimezone: DROPOFF_ZONE,
            refNumber: 'PO-77190',
            locations: [
              stop(CHICAGO, 1, 'Acme Paper Mill'),
              stop(INDIANAPOLIS, 4, 'Hoosier Print Works'),
            ],
          }),
          terms: TERMS,
        });
        const offer = await api<{ id: string }>('POST', `/proposal/${posted.id}`, carrier.token, {
          price: 1250,
          message: 'Dry van in Chicago this morning',
        });
        await api('PUT', `/proposal/${offer.id}`, shipper.token, { status: 5 });
        const load = await api<{
          tourId: string;
          agreedTerms: typeof TERMS & { graceMinutes: number };
        }>('GET', `/loads/${posted.id}`, shipper.token);
        const tourId = load.tourId;
        t.match(
          load.agreedTerms,
          TERMS,
          'the terms agreed at the booking: 2 h free at delivery, $75 an hour',
        );
        const contract = new FormData();
        contract.append('status', '14');
        contract.append(
          'contract',
          new Blob([new Uint8Array(await pdf('Rate confirmation PO-77190'))], {
            type: 'application/pdf',
          }),
          'signed.pdf',
        );
        await api('POST', `/proposal/load/${posted.id}`, carrier.token, contract);
        await api('POST', `/tours/${tourId}/assign/${driver.userId}`, carrier.token);
        await api('PUT', `/tours/${tourId}/status`, driver.token, {
          status: 3,
          message: 'Heading to the mill',
        });

        // Three hours after the delivery's appointment (and a few seconds), on the server and in
        // the browsers.
        const leftAt = appointment + HELD_HOURS * HOUR;
        const offset = leftAt + 20_000 - Date.now();
        const now = () => Date.now() + offset;
        await moveServerClock(
          server,
          clockEnv,
          offset,
          async () => (await login(server.url, demo.driver2)).serverTime,
        );
        t.comment(`the server's clock moved ${(offset / HOUR).toFixed(2)} h ahead`);
        const driverToken = (await login(server.url, demo.driver2)).token;
        const shipperToken = (await login(server.url, demo.shipper)).token;

        // The driver's phone sends what it recorded: the pickup, the road, the delivery (5 minutes
        // before the appointment) and the truck standing at the door.
        const at = (place: typeof CHICAGO, when: number, north = 0, east = 0) => ({
          latitude: place.latitude + north,
          longitude: place.longitude + east,
          speed: Math.abs(north) + Math.abs(east) > 0.01 ? 45 : 0,
          heading: 150,
          accuracy: 6,
          recordedAt: iso(when),
        });
        const arrivedAt = appointment - 5 * MINUTE;
        const standing = [15, 45, 75, 105, 135, 165].map((minutes, index) =>
          at(INDIANAPOLIS, appointment + minutes * MINUTE, (index % 3) * 0.0004, -0.0003),
        );
        await api('POST', `/tours/${tourId}/positions`, driverToken, [
          at(CHICAGO, pickupAt - 10 * MINUTE),
          at(CHICAGO, pickupAt + 25 * MINUTE, -0.05, 0.03),
          at(CHICAGO, pickupAt + 2 * HOUR, -1.2, 0.9),
          at(INDIANAPOLIS, arrivedAt),
          ...standing,
        ]);
        const deadline = Date.now() + 30_000;
        for (;;) {
          const track = await api<{ stops: { arrived: boolean }[] }>(
            'GET',
            `/tours/track/${tourId}`,
            shipperToken,
          );
          if (track.stops[1]?.arrived) break;
          if (Date.now() > deadline)
            throw new Error('the arrival at the delivery was not recorded');
          await new Promise((resolve) => setTimeout(resolve, 250));
        }

        const contextAt = async (options: Parameters<Browser['newContext']>[0]) => {
          const context = await browser.newContext({
            timezoneId: 'America/Indiana/Indianapolis',
            ...options,
          });
          t.teardown(() => context.close().catch(() => undefined));
          await context.clock.install({ time: now() });
          return context;
        };
        // A time as the screens write it (without its zone's name), in `timeZone` or the viewer's,
        // its spaces as `text` reads them.
        const inPage = async (page: Page, when: number, timeZone?: string) =>
          (
            await page.evaluate(
              ([value, zone]) =>
                new Intl.DateTimeFormat('en', {
                  month: 'short',
                  day: 'numeric',
                  hour: 'numeric',
                  minute: '2-digit',
                  ...(zone ? { timeZone: zone } : {}),
                }).format(new Date(value)),
              [when, timeZone] as const,
            )
          ).replace(/\s+/g, ' ');
        const text = async (locator: ReturnType<Page['locator']>) =>
          ((await locator.textContent()) ?? '').replace(/\s+/g, ' ');

        // The driver's page: the clock of the stop the truck stands at.
        const phone = await contextAt({ ...PHONE, locale: 'en-US' });
        const { page: driverPage, errors: driverErrors } = await openPage(phone);
        await signIn(driverPage, server.url, demo.driver2.email, demo.driver2.password);
        await driverPage.goto(`${server.url}/driver`);
        const driverClock = driverPage.locator('section.detention-clock');
        await driverClock.getByRole('heading', { name: 'Detention clock' }).waitFor({
          timeout: 30_000,
        });
        // The clock writes its times in the stop's zone (the load's dropoff zone).
        const detentionFrom = await inPage(driverPage, appointment + 2 * HOUR, DROPOFF_ZONE);
        const onDriver = await text(driverClock);
        t.match(onDriver, 'At Hoosier Print Works', "the driver's clock names the stop");
        t.match(onDriver, /Time on site: 3 h 0\d min/, 'the time on site: 3 hours');
        t.match(
          onDriver,
          `Detention since ${detentionFrom}`,
          'detention runs since the end of the 2 free hours',
        );
        t.match(onDriver, /: 1 h 0\d min, \$7\d\.\d\d so far/, '1 h of it so far, at $75 an hour');
        t.match(onDriver, /before the appointment at .*the clock starts at the appointment/);
        await driverClock.scrollIntoViewIfNeeded();
        await journey.check(t, driverPage, 'driver-detention-clock');

        // The shipper's tracking screen: the same clock, and no claim yet.
        const office = await contextAt(DESK);
        const { page: shipperPage, errors: shipperErrors } = await openPage(office);
        await signIn(shipperPage, server.url, demo.shipper.email, demo.shipper.password);
        await shipperPage.goto(`${server.url}/track/tour/${tourId}`);
        const shipperClock = shipperPage.locator('section.detention-clock');
        await shipperClock.waitFor({ timeout: 30_000 });
        const onShipper = await text(shipperClock);
        t.match(onShipper, /Time on site: 3 h 0\d min/, "the shipper's screen: the time on site");
        t.match(onShipper, `Detention since ${detentionFrom}`, 'and since when detention runs');
        const shipperClaims = shipperPage.locator('section.claims-panel');
        await shipperClaims.getByText('No claims on this tour yet.').waitFor({ timeout: 15_000 });
        await shipperPage.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 });
        await shipperClock.scrollIntoViewIfNeeded();
        await journey.check(t, shipperPage, 'shipper-detention-clock');

        // The carrier's dispatcher keeps the same tour open.
        const carrierOffice = await contextAt({ ...DESK, timezoneId: 'America/Chicago' });
        const { page: carrierPage, errors: carrierErrors } = await openPage(carrierOffice);
        await signIn(carrierPage, server.url, demo.carrier2.email, demo.carrier2.password);
        await carrierPage.goto(`${server.url}/track/tour/${tourId}`);
        await carrierPage.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });

        // The truck leaves: a position outside the delivery's geofence, taken 3 h after the
        // appointment. The platform claims detention by itself and pushes it.
        await shipperPage.evaluate(() => {
          (window as unknown as { sameDocument: boolean }).sameDocument = true;
        });
        const sentAt = Date.now();
        await api('POST', `/tours/${tourId}/positions`, driverToken, [
          at(INDIANAPOLIS, leftAt, 0.03, 0.02),
        ]);
        const shipperClaim = shipperClaims.getByRole('listitem', { name: /^Detention / });
        await shipperClaims
          .getByRole('listitem', { name: 'Detention $75.00 Claimed' })
          .waitFor({ timeout: CLAIM_MS });
        const delay = Date.now() - sentAt;
        t.comment(
          `the claim reached the shipper's screen ${delay} ms after the departure was sent`,
        );
        t.ok(delay < CLAIM_MS, `the claim shows within a minute (${delay} ms)`);
        t.ok(
          await shipperPage.evaluate(
            () => (window as unknown as { sameDocument?: boolean }).sameDocument === true,
          ),
          'without a reload',
        );
        const claims = await api<Claim[]>('GET', `/tours/${tourId}/claims`, shipperToken);
        const claim = claims.find((entry) => entry.kind === 'detention')!;
        t.match(
          claim,
          {
            minutes: 60,
            amount: 75,
            status: 'claimed',
            evidence: {
              arrivedAt: iso(arrivedAt),
              leftAt: iso(leftAt),
              appointmentAt: iso(appointment),
            },
          },
          '1 h over the free time at $75 an hour, from the recorded times',
        );
        // The arrival and the six positions of the truck standing at the door.
        t.equal(claim.evidence.positionsInside.length, 7, 'the positions inside the geofence');
        const evidence = async (term: string) =>
          text(
            shipperClaim.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd'),
          );
        t.equal(await evidence('Minutes'), '1 h 00 min', 'evidence: 1 h of detention');
        t.match(
          await evidence('Appointment'),
          await inPage(shipperPage, appointment),
          'evidence: the appointment',
        );
        t.match(
          await evidence('Arrived'),
          await inPage(shipperPage, arrivedAt),
          'evidence: the arrival',
        );
        t.match(
          await evidence('Left'),
          await inPage(shipperPage, leftAt),
          'evidence: the departure',
        );
        t.equal(
          await evidence('Positions inside the geofence'),
          '7',
          'evidence: the positions inside the geofence',
        );
        await shipperClock.waitFor({ state: 'detached', timeout: 15_000 });
        t.pass('the clock goes once the truck left');
        await shipperClaim.scrollIntoViewIfNeeded();
        await journey.check(t, shipperPage, 'shipper-claim-live');

        // The shipper disputes it with a reason.
        await shipperClaim.getByRole('button', { name: 'Dispute' }).click();
        const disputeDialog = shipperPage.getByRole('dialog', {
          name: 'Dispute the Detention claim of $75.00',
        });
        await disputeDialog.getByLabel('Reason for the dispute').fill(REASON);
        await journey.check(t, shipperPage, 'shipper-dispute-dialog');
        await disputeDialog.getByRole('button', { name: 'Send' }).click();
        await shipperClaims
          .getByRole('listitem', { name: 'Detention $75.00 Disputed' })
          .waitFor({ timeout: 15_000 });
        t.pass('the shipper sees it Disputed');

        // The carrier's dispatcher, whose screen was open, sees the dispute and its reason.
        const carrierClaims = carrierPage.locator('section.claims-panel');
        const carrierClaim = carrierClaims.getByRole('listitem', {
          name: 'Detention $75.00 Disputed',
        });
        await carrierClaim.waitFor({ timeout: 15_000 });
        t.match(await text(carrierClaim), `Reason for the dispute: ${REASON}`, 'with its reason');
        await carrierClaim.getByRole('button', { name: 'Answer the dispute' }).click();
        const answerDialog = carrierPage.getByRole('dialog', {
          name: 'Answer the dispute of the Detention claim',
        });
        await answerDialog.getByLabel('Your answer').fill(ANSWER);
        await answerDialog.getByRole('button', { name: 'Send' }).click();
        await carrierClaims
          .getByRole('listitem', { name: 'Detention $75.00 Answered' })
          .waitFor({ timeout: 15_000 });
        await carrierClaims.scrollIntoViewIfNeeded();
        await journey.check(t, carrierPage, 'carrier-answered');

        // The Superadmin reads both sides and settles.
        const adminOffice = await contextAt({ ...DESK, timezoneId: 'America/New_York' });
        const { page: adminPage, errors: adminErrors } = await openPage(adminOffice);
        await signIn(adminPage, server.url, demo.admin.email, demo.admin.password);
        await adminPage.goto(`${server.url}/track/tour/${tourId}`);
        const adminClaim = adminPage
          .locator('section.claims-panel')
          .getByRole('listitem', { name: 'Detention $75.00 Answered' });
        await adminClaim.waitFor({ timeout: 30_000 });
        const onAdmin = await text(adminClaim);
        t.match(
          onAdmin,
          `Reason for the dispute: ${REASON}`,
          "the Superadmin reads the shipper's reason",
        );
        t.match(onAdmin, `The carrier's answer: ${ANSWER}`, "and the carrier's answer");
        t.equal(onAdmin.split(ANSWER).length, 2, 'the answer once (it is also the note)');
        await adminClaim.getByRole('button', { name: 'Settle' }).click();
        const settleDialog = adminPage.getByRole('dialog', {
          name: 'Settle the Detention claim of $75.00',
        });
        const amount = settleDialog.getByLabel('Settled amount');
        t.equal(await amount.inputValue(), '$75.00', 'the claimed amount to start from');
        await amount.click();
        await amount.press('ControlOrMeta+a');
        await amount.pressSequentially('60');
        await settleDialog.getByLabel('Settlement note').fill(NOTE);
        t.equal(await amount.inputValue(), '$60.00', 'settled at $60');
        await journey.check(t, adminPage, 'admin-settle-dialog');
        await settleDialog.getByRole('button', { name: 'Send' }).click();
        await adminPage
          .locator('section.claims-panel')
          .getByRole('listitem', { name: 'Detention $75.00 Settled' })
          .waitFor({ timeout: 15_000 });

        // The shipper's screen, still open, shows the decision.
        const settled = shipperClaims.getByRole('listitem', { name: 'Detention $75.00 Settled' });
        await settled.waitFor({ timeout: 15_000 });
        t.match(
          await text(settled),
          `Settled at $60.00 · ${NOTE}`,
          'the shipper sees the settlement',
        );
        await settled.scrollIntoViewIfNeeded();
        await journey.check(t, shipperPage, 'shipper-settled');
        const final = (await api<Claim[]>('GET', `/tours/${tourId}/claims`, shipperToken)).find(
          (entry) => entry.id === claim.id,
        );
        t.match(final, { status: 'settled', settledAmount: 60 }, 'settled at $60 on the server');

        t.same(driverErrors, [], 'no page error on the phone');
        t.same(shipperErrors, [], 'no page error for the shipper');
        t.same(carrierErrors, [], "no page error for the carrier's dispatcher");
        t.same(adminErrors, [], 'no page error for the Superadmin');
      },
    );
  },
  clockEnv,
);
