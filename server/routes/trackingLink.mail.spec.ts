/**
 * A tracking link sent by e-mail: `POST tours/{id}/share {email}` mails the absolute link to the
 * receiver through SMTP (a local SMTP server here), and the link in the mail opens the shared tour.
 * The link is built on PUBLIC_URL, never on the request's Host header (a forged one changes nothing).
 * A bad address answers 400 naming `email` and makes no link; an SMTP server that refuses still
 * leaves a working link, with `emailed: false`.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { member, organization } from '../identity/fixtures.ts';
import { login, startListeningApp } from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { runningTour } from '../testing/runningTour.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);

let refuse = false;
const mails: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      if (refuse) return callback(new Error('Mailbox unavailable'));
      const mail = Buffer.concat(chunks).toString('utf8');
      // The members' own "new sign-in" notices (a test signs in from a new address) are not links.
      if (!/^Subject: New sign-in/m.test(mail)) mails.push(mail);
      return callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
// The origin the receivers reach the app at; the test speaks to it on a loopback port.
const PUBLIC_URL = 'https://freight.example.com';
const { app, platform, baseUrl, http } = await startListeningApp(t, {
  smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
  publicUrl: PUBLIC_URL,
});

const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Dan Driver',
});
const emails = { shipper: shipper.email, carrier: carrier.email, driver: driver.email };
const { tourId } = await runningTour(
  http,
  async (who) => (await login(http, emails[who])).accessToken,
  driver.userId,
);
const as = requester(app);
const events = await watchEvents(platform.store);

t.test('the link goes to the receiver by e-mail and opens the shared tour', async (t) => {
  const created = await as(shipper).post(`/api/tours/${tourId}/share`, {
    expiresInHours: 48,
    email: 'dock@receiver.example',
  });
  t.equal(created.status, 201);
  t.equal(created.body.emailed, true);
  await events.expect(t, [
    {
      type: 'TourShared',
      stream: tourStream(tourId),
      data: {
        tourId,
        tokenHash: hashShareToken(created.body.token),
        organizationId: shipper.organizationId,
        sharedBy: shipper.userId,
        expiresAt: created.body.expiresAt,
      },
    },
  ]);
  t.equal(mails.length, 1);
  const mail = mails[0]!.replace(/=\r?\n/g, '');
  t.match(mail, /To: dock@receiver\.example/);
  t.match(mail, /Subject: Track load L-/);
  t.match(mail, /Acme Shipping shares the tracking/);
  const link = /(https?:\/\/\S+\/shared\/track\/[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
  t.equal(link, `${PUBLIC_URL}${created.body.url}`, 'the absolute link, on PUBLIC_URL');
  const opened = await fetch(
    link!.replace(PUBLIC_URL, baseUrl).replace('/shared/track/', '/api/shared/track/'),
  );
  t.equal(opened.status, 200, 'which opens the shared tour');
});

t.test('a forged Host header does not change the e-mailed link', async (t) => {
  const before = mails.length;
  const created = await as(shipper).post(
    `/api/tours/${tourId}/share`,
    { email: 'dock@receiver.example' },
    {
      host: 'attacker.example',
      'x-forwarded-host': 'attacker.example',
      'x-forwarded-proto': 'http',
    },
  );
  t.equal(created.status, 201, created.text);
  t.equal(created.body.emailed, true);
  await events.expect(t, [
    {
      type: 'TourShared',
      stream: tourStream(tourId),
      data: { tourId, tokenHash: hashShareToken(created.body.token), sharedBy: shipper.userId },
    },
  ]);
  t.equal(mails.length, before + 1);
  const mail = mails.at(-1)!.replace(/=\r?\n/g, '');
  t.notMatch(mail, /attacker\.example/, 'the forged host is nowhere in the mail');
  t.match(mail, `${PUBLIC_URL}${created.body.url}`, 'the link is on PUBLIC_URL');
});

t.test('a bad address answers 400 naming email, and no link is made', async (t) => {
  const sent = mails.length;
  for (const email of ['not-an-address', `${'x'.repeat(250)}@a.example`, 42]) {
    const answer = await as(shipper).post(`/api/tours/${tourId}/share`, { email });
    t.equal(answer.status, 400, JSON.stringify(email).slice(0, 20));
    t.match(answer.text, /email/);
  }
  await events.expect(t, [], { message: 'no link made' });
  t.equal(mails.length, sent, 'nothing sent');
});

t.test('an SMTP server that refuses leaves a working link, said so in the answer', async (t) => {
  refuse = true;
  t.teardown(() => {
    refuse = false;
  });
  const created = await as(carrier).post(`/api/tours/${tourId}/share`, {
    email: 'dock@receiver.example',
  });
  t.equal(created.status, 201);
  t.equal(created.body.emailed, false);
  await events.expect(t, [
    {
      type: 'TourShared',
      stream: tourStream(tourId),
      data: {
        tokenHash: hashShareToken(created.body.token),
        organizationId: carrier.organizationId,
        sharedBy: carrier.userId,
      },
    },
  ]);
  t.equal((await as(null).get(`/api/shared/track/${created.body.token}`)).status, 200);
});
