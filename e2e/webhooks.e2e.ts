/**
 * Webhooks in Account settings: a shipper adds an endpoint (a local receiver; the server runs with
 * WEBHOOK_ALLOW_PRIVATE=1), sees the secret once and copies it, sends a test event that arrives
 * signed with that secret, reads the recent deliveries, replays, and deletes the endpoint after
 * confirming. The same screen in Arabic, right to left, on a phone.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import { toastSaying } from './steps.ts';

const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
t.teardown(
  () =>
    new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    }),
);
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/erp/hooks`;

const waitFor = async (check: () => boolean, label: string) => {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

await withBrowser(
  t,
  async (server, browser) => {
    const journey = new Journey('webhooks');

    await t.test(
      'a shipper adds a webhook, copies its secret, tests, replays and deletes it',
      async (t: Test) => {
        const context = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          locale: 'en-US',
        });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: server.url,
        });
        const { page, errors } = await openPage(context);
        await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
        await page.getByRole('button', { name: /^User menu of / }).click();
        await page.getByRole('menuitem', { name: 'My account' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('tab', { name: 'Webhooks' }).click();
        await dialog.getByText('No webhooks yet.').waitFor();
        await journey.check(t, page, 'webhooks-empty');

        // Nothing chosen: the form says so before anything is sent.
        await dialog.getByRole('button', { name: 'Add webhook' }).click();
        await dialog.getByText('Please enter the URL').waitFor();
        await dialog.getByLabel('URL').fill(hookUrl);
        await dialog.getByLabel('Chat message').uncheck();
        await dialog.getByLabel('Description').fill('ERP integration');
        await dialog.getByRole('button', { name: 'Add webhook' }).click();

        const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
        const secret = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
        t.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/, 'the secret is shown');
        await journey.check(t, page, 'webhooks-secret');
        await secretDialog.getByRole('button', { name: 'Copy' }).click();
        await secretDialog.getByRole('button', { name: 'Copied' }).waitFor();
        t.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'copied');
        await secretDialog.getByRole('button', { name: 'Done' }).click();

        const card = dialog.getByRole('region', { name: hookUrl });
        await card.waitFor();
        t.ok(await card.getByText('ERP integration').isVisible(), 'the description shows');
        t.equal(
          await card.getByText('chat.message').count(),
          0,
          'the unchecked event is not subscribed',
        );

        await card.getByRole('button', { name: 'Send a test event' }).click();
        await toastSaying(page, 'Test event queued').waitFor();
        await waitFor(
          () => received.some((entry) => entry.body.includes('webhook.test')),
          'the test event',
        );
        const test = received.find((entry) => entry.body.includes('webhook.test'))!;
        const expected = crypto
          .createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
          .update(`${test.headers['webhook-id']}.${test.headers['webhook-timestamp']}.${test.body}`)
          .digest('base64');
        t.equal(
          test.headers['webhook-signature'],
          `v1,${expected}`,
          'signed with the secret the screen showed',
        );

        await card.getByRole('button', { name: 'Recent deliveries' }).click();
        // The demo's live tour sends the shipper positions too: the test event's row among them.
        const testRow = card.getByRole('row').filter({ hasText: 'webhook.test' });
        await testRow.getByRole('cell', { name: 'Delivered' }).waitFor();
        t.ok(
          await testRow.getByRole('cell', { name: '204' }).isVisible(),
          'with its response status',
        );
        await card.getByText('Delivered').first().waitFor();
        await journey.check(t, page, 'webhooks-deliveries');

        await card.getByLabel('Replay events since').fill('2020-01-01T00:00');
        await card.getByRole('button', { name: 'Replay' }).click();
        await toastSaying(page, /events queued again/).waitFor();

        await card.getByRole('button', { name: 'Delete' }).click();
        const confirm = page.locator('.p-confirm-dialog');
        await confirm.getByText(`Delete the webhook ${hookUrl}?`).waitFor();
        await journey.check(t, page, 'webhooks-delete-confirm');
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await dialog.getByText('No webhooks yet.').waitFor();
        t.same(errors, [], 'no page errors');
        await context.close();
      },
    );

    await t.test('the Webhooks screen in Arabic, right to left, on a phone', async (t: Test) => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: 'ar',
      });
      const { page, errors } = await openPage(context);
      await page.addInitScript(() => window.localStorage.setItem('language', 'ar'));
      await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
      t.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
      await page.locator('.user-button').click();
      await page.getByRole('menuitem').first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('tab', { name: 'خطافات الويب' }).click();
      await dialog.getByText('لا توجد خطافات ويب بعد.').waitFor();
      await dialog.getByLabel('الرابط').fill(hookUrl);
      await dialog.getByRole('button', { name: 'إضافة الخطاف' }).click();
      await page
        .getByRole('dialog', { name: 'سر التوقيع' })
        .getByRole('button', { name: 'تم' })
        .click();
      const card = dialog.getByRole('region', { name: hookUrl });
      await card.waitFor();
      await card.getByRole('button', { name: 'عمليات الإرسال الأخيرة' }).click();
      await card.scrollIntoViewIfNeeded();
      await journey.check(t, page, 'ar-phone-webhooks');
      t.same(errors, [], 'no page errors');
      await context.close();
    });

    journey.summary(t);
  },
  { WEBHOOK_ALLOW_PRIVATE: '1' },
);
