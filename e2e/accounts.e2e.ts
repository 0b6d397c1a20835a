/**
 * Getting on the marketplace and filling it in bulk (issue 9, journeys 1 and 6, and the
 * keyboard-only sign-in): a carrier registers with its three PDFs, reads its 6-digit code from the
 * Superadmin's outbox, registers again by mistake and is sent to the code screen ('Registration
 * already started'), asks for a new code there, confirms it, the Superadmin activates the company,
 * and the carrier signs in
 * with the keyboard only and lands on the marketplace. A shipper's CSV with one bad row shows that
 * row's error and creates nothing.
 */
import t, { type Test } from 'tap';
import type { BrowserContext } from 'playwright-core';
import { apiToken, demo, Journey, openPage, pdfFile, signIn, withBrowser } from './harness.ts';
import { rowAction, rowWith, segmentsOf, tabTo } from './steps.ts';

const unique = Date.now().toString(36);
const newCarrier = {
  name: 'Rosa Alvarez',
  email: `dispatch.${unique}@haul.example`,
  username: `rosa${unique}`,
  phone: '(555) 555-0142',
  password: 'Haul-it-2026!',
  company: `Copper Canyon Haulers ${unique}`,
  person: 'Rosa Alvarez',
  address: '12 Depot Road, Tucson, AZ 85701',
  companyPhone: '520-555-0188',
  companyEmail: `office.${unique}@haul.example`,
  mc: '712345',
  dot: '3312456',
};

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('accounts');
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      timezoneId: 'America/Phoenix',
    });
    contexts.push(created);
    return created;
  };
  t.teardown(async () => {
    for (const each of contexts) await each.close().catch(() => undefined);
  });

  await t.test(
    'a carrier registers, confirms its e-mailed code, is activated, and signs in by keyboard',
    async (t: Test) => {
      const carrier = await openPage(await context());
      const admin = await openPage(await context());
      const { page } = carrier;

      await page.goto(`${server.url}/signup/carrier`);
      await page.getByRole('heading', { name: /Step 1 of 5/ }).waitFor();
      await journey.check(t, page, 'signup-account');
      await page.getByLabel(/^Full name\b/).fill(newCarrier.name);
      await page.getByLabel(/^Email\b/).fill(newCarrier.email);
      await page.getByLabel(/^Username\b/).fill(newCarrier.username);
      await page.getByLabel(/^Phone\b/).fill(newCarrier.phone);
      await page.getByLabel(/^Password\b/).fill(newCarrier.password);
      await page.getByLabel(/^Retype password\b/).fill(newCarrier.password);
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByRole('heading', { name: /Step 2 of 5/ }).waitFor();
      await page.getByLabel(/^Company name\b/).fill(newCarrier.company);
      await page.getByLabel(/^Contact person name\b/).fill(newCarrier.person);
      await page.getByLabel(/^Company address\b/).fill(newCarrier.address);
      await page.getByLabel(/^Company phone\b/).fill(newCarrier.companyPhone);
      await page.getByLabel(/^Company email\b/).fill(newCarrier.companyEmail);
      await journey.check(t, page, 'signup-company');
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByRole('heading', { name: /Step 3 of 5/ }).waitFor();
      await page.getByLabel(/^MC number\b/).fill(newCarrier.mc);
      await page.getByLabel(/^DOT number\b/).fill(newCarrier.dot);
      // The three documents, each through its drop zone's file input.
      const inputs = page.locator('.signup-files input[type="file"]');
      t.equal(await inputs.count(), 3, 'three documents are asked for');
      for (const [index, name] of [
        'mc-authority.pdf',
        'certificate-of-insurance.pdf',
        'w9-form.pdf',
      ].entries()) {
        await inputs.nth(index).setInputFiles(await pdfFile(name));
        await page.getByText(name).waitFor();
      }
      await journey.check(t, page, 'signup-documents');
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByRole('heading', { name: /Step 4 of 5/ }).waitFor();
      await journey.check(t, page, 'signup-fleet');
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByRole('heading', { name: /Step 5 of 5/ }).waitFor();
      await page.getByText('3 of 3 uploaded').waitFor();
      await page.getByLabel('I accept the Terms & Conditions').check();
      await journey.check(t, page, 'signup-review');
      await page.getByRole('button', { name: 'Create my account' }).click();
      await page.waitForURL(/\/signup-complete/, { timeout: 30_000 });
      await journey.check(t, page, 'signup-complete');

      // The Superadmin's outbox holds the code (no SMTP server in the test).
      await signIn(admin.page, server.url, demo.admin.email, demo.admin.password);
      await admin.page.goto(`${server.url}/admin/outbox`);
      const entry = admin.page.locator('li.outbox-entry', { hasText: `To ${newCarrier.email}` });
      await entry.first().waitFor({ timeout: 30_000 });
      const firstCode =
        (await entry.first().locator('.outbox-code strong').textContent())?.trim() ?? '';
      t.match(firstCode, /^\d{6}$/, 'the outbox shows a 6-digit code');
      await journey.check(t, admin.page, 'admin-outbox');

      // Registering again with the e-mail and password of this waiting registration (here from the
      // shipper form) leads to the code screen for that e-mail with the message, where a new code
      // can be asked for.
      const again = await openPage(await context());
      await again.page.goto(`${server.url}/signup/shipper`);
      await again.page.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
      await again.page.getByLabel(/^Full name\b/).fill(newCarrier.name);
      await again.page.getByLabel(/^Email\b/).fill(newCarrier.email);
      await again.page.getByLabel(/^Username\b/).fill(newCarrier.username);
      await again.page.getByLabel(/^Phone\b/).fill(newCarrier.phone);
      await again.page.getByLabel(/^Password\b/).fill(newCarrier.password);
      await again.page.getByLabel(/^Retype password\b/).fill(newCarrier.password);
      await again.page.getByRole('button', { name: 'Next' }).click();
      await again.page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
      await again.page.getByLabel(/^Company name\b/).fill(newCarrier.company);
      await again.page.getByLabel(/^Contact person name\b/).fill(newCarrier.person);
      await again.page.getByLabel(/^Company address\b/).fill(newCarrier.address);
      await again.page.getByLabel(/^Company phone\b/).fill(newCarrier.companyPhone);
      await again.page.getByLabel(/^Company email\b/).fill(newCarrier.companyEmail);
      await again.page.getByRole('button', { name: 'Next' }).click();
      await again.page.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
      await again.page.getByLabel('< $100,000.00').check();
      await again.page.getByLabel('I accept the Terms & Conditions').check();
      await again.page.getByRole('button', { name: 'Create my account' }).click();
      await again.page.waitForURL(/\/confirm-signup\?.*started=1/, { timeout: 30_000 });
      await again.page
        .getByText('Registration already started, please enter the security code')
        .waitFor({ timeout: 30_000 });
      t.equal(
        await again.page.getByLabel(/^Email\b/).inputValue(),
        newCarrier.email,
        'the code screen is for that e-mail',
      );
      await journey.check(t, again.page, 'registration-started');
      await again.page.getByRole('button', { name: 'Send the code again' }).click();
      await again.page
        .getByText(
          'If a registration with this address is waiting for its code, a new code has been sent to it.',
        )
        .waitFor({ timeout: 30_000 });
      await journey.check(t, again.page, 'code-sent-again');
      await admin.page.reload();
      await entry.nth(1).waitFor({ timeout: 30_000 });
      t.equal(await entry.count(), 2, 'a second code for the address is in the outbox');
      const code = (await entry.first().locator('.outbox-code strong').textContent())?.trim() ?? '';
      t.match(code, /^\d{6}$/, 'the newest code is the one to enter');

      await page.getByRole('link', { name: 'Enter my code' }).click();
      await page.waitForURL(/\/confirm-signup/);
      t.equal(
        await page.getByLabel(/^Email\b/).inputValue(),
        newCarrier.email,
        'the address is filled in',
      );
      await page.getByLabel('Verification code').fill(code);
      await journey.check(t, page, 'confirm-code');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('heading', { name: 'E-mail confirmed' }).waitFor({ timeout: 30_000 });
      await journey.check(t, page, 'confirmed');

      // The Superadmin activates the pending company.
      await admin.page.goto(`${server.url}/users/carriers/pending`);
      await rowWith(admin.page, newCarrier.company).first().waitFor({ timeout: 30_000 });
      await journey.check(t, admin.page, 'admin-carriers-pending');
      await rowAction(admin.page, newCarrier.company, 'Activate');
      await admin.page.getByText('Organization activated').first().waitFor({ timeout: 30_000 });
      await rowWith(admin.page, newCarrier.company)
        .first()
        .waitFor({ state: 'detached', timeout: 30_000 });
      await admin.page.goto(`${server.url}/users/carriers/active`);
      await rowWith(admin.page, newCarrier.company).first().waitFor({ timeout: 30_000 });
      t.pass('the company is active');

      // Keyboard only: the e-mail field has the focus, Tab to the password, Enter.
      const fresh = await openPage(await context());
      await fresh.page.goto(`${server.url}/signin`);
      await fresh.page.locator('#signin-email').waitFor();
      await journey.check(t, fresh.page, 'signin');
      await tabTo(fresh.page, fresh.page.locator('#signin-email'));
      await fresh.page.keyboard.type(newCarrier.email);
      await tabTo(fresh.page, fresh.page.locator('#signin-password'));
      await fresh.page.keyboard.type(newCarrier.password);
      await fresh.page.keyboard.press('Enter');
      await fresh.page.waitForURL(/\/loads\/carrier/, { timeout: 30_000 });
      t.pass('the new carrier signed in by keyboard and landed on /loads/carrier');
      await fresh.page.getByRole('heading', { level: 1 }).waitFor();
      await journey.check(t, fresh.page, 'new-carrier-marketplace');
      t.same(
        [...carrier.errors, ...admin.errors, ...again.errors, ...fresh.errors],
        [],
        'no page errors',
      );
    },
  );

  await t.test(
    "a CSV with one bad row shows that row's error and creates nothing",
    async (t: Test) => {
      const { page, errors } = await openPage(await context());
      await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
      const report = page.locator('.table-page-report');
      const totalOf = async () =>
        Number(
          /of\s+([\d,]+)/
            .exec((await report.first().textContent()) ?? '')?.[1]
            ?.replace(/,/g, '') ?? NaN,
        );
      await page.goto(`${server.url}/loads/shipper`);
      await report
        .first()
        .filter({ hasText: /of [1-9]/ })
        .waitFor({ timeout: 30_000 });
      const before = await totalOf();
      t.ok(before > 0, `the shipper has ${before} loads before`);

      // The template's header and example row, with dates ahead of now; the second row weighs nothing.
      const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
      const template = await (
        await fetch(`${server.url}/api/loads/batchImport/template`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).text();
      const [header] = template.trim().split(/\r?\n/);
      const when = (days: number, hour: number) => {
        const [month, day, year] = segmentsOf(
          new Date(Date.now() + days * 86_400_000),
          'America/Chicago',
        );
        return `${month}/${day}/${year} ${String(hour).padStart(2, '0')}:00 AM`;
      };
      const row = (ref: string, weight: string) =>
        [
          when(3, 8),
          when(3, 10),
          'America/Chicago',
          'Acme Distribution Center',
          '"Chicago, IL"',
          'Ann Lee',
          '(312) 555-0100',
          'PU-1',
          when(4, 9),
          when(4, 11),
          'America/Chicago',
          'Beta Foods Warehouse',
          '"Indianapolis, IN"',
          'Sam Ortiz',
          '317-555-0199',
          'DO-2',
          when(2, 9),
          'America/Chicago',
          'FTL',
          '53 ft Reefer',
          'Liftgate',
          weight,
          'Frozen food',
          ref,
          'Dock 4',
        ].join(',');
      const csv = [
        header,
        row(`CSV-${unique}-1`, '42000'),
        row(`CSV-${unique}-2`, '-5'),
        row(`CSV-${unique}-3`, '41000'),
      ].join('\n');

      await page.goto(`${server.url}/loads/upload`);
      await page
        .locator('input[type="file"]')
        .first()
        .setInputFiles({ name: 'loads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByText('Preview: 3 rows').waitFor({ timeout: 30_000 });
      await journey.check(t, page, 'upload-preview');
      await page.getByRole('button', { name: /Import the rows \(3\)/ }).click();
      await page.getByText('Rows checked: 3; rows with problems: 1').waitFor({ timeout: 30_000 });
      const invalid = page.locator('tr.row-invalid');
      t.equal(await invalid.count(), 1, 'one row is marked invalid');
      t.match(await invalid.first().textContent(), `CSV-${unique}-2`, 'it is the second row');
      t.match(
        await invalid.first().locator('.row-errors').textContent(),
        /weight/i,
        'the bad row says what is wrong with its weight',
      );
      t.equal(
        await page.getByRole('img', { name: 'No problem on this row' }).count(),
        2,
        'the two good rows are marked fine',
      );
      await journey.check(t, page, 'upload-row-error');

      await page.goto(`${server.url}/loads/shipper`);
      await report
        .first()
        .filter({ hasText: /of [1-9]/ })
        .waitFor({ timeout: 30_000 });
      t.equal(await totalOf(), before, 'no load was created');
      await page.getByRole('searchbox', { name: 'Search' }).fill(`CSV-${unique}`);
      await page.getByText('0–0 of 0').waitFor({ timeout: 30_000 });
      t.pass('no load of the file exists');
      t.same(errors, [], 'no page errors');
    },
  );

  journey.summary(t);
});
