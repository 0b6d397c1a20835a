import { randomBytes } from 'node:crypto';
import t from 'tap';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { publicEvent } from '../../domain/shared/publicEvent.ts';
import { userStream } from '../../domain/users/user.ts';
import {
  hashRecoveryCode,
  TOTP_PERIOD_SECONDS,
  totpCodeAt,
  twoFactorContext,
} from '../auth/twoFactor.ts';
import { createSecretBox } from '../cluster/secretBox.ts';
import { member, organization, PASSWORD, superadmin, type Member } from '../identity/fixtures.ts';
import { connected, connectSocket } from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

/** A sign-in from an address and browser of the test's choosing (each test its own address: the limits count per address). */
async function login(
  target: typeof app,
  body: { email: string; password?: string; code?: string },
  device: { address: string; userAgent?: string },
) {
  const response = await target.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: device.address,
    headers: { 'user-agent': device.userAgent ?? 'lightMyRequest' },
    payload: { password: PASSWORD, ...body },
  });
  return { status: response.statusCode, body: response.json() };
}

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
/** The app's code `steps` periods from now (the server accepts one period of drift either way). */
const codeOf = (secret: string, steps = 0) => totpCodeAt(secret, Date.now() + steps * STEP_MS);
/** A few requests that rely on the current step start well inside it, not at its last seconds. */
async function awayFromStepEdge() {
  const into = Date.now() % STEP_MS;
  if (into > STEP_MS - 8000)
    await new Promise((resolve) => setTimeout(resolve, STEP_MS - into + 200));
}

/** Enrols the member through the routes; its secret and recovery codes. */
async function enrol(target: typeof app, who: Member | string) {
  const ask = requester(target)(who);
  const setup = await ask.post('/api/account/2fa/setup', {});
  const confirmed = await ask.post('/api/account/2fa/confirm', {
    code: codeOf(setup.body.secret, -1),
  });
  return { secret: setup.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes };
}

t.test('enrolment: a secret and its QR code, on only once a code confirms it', async (t) => {
  await awayFromStepEdge();
  const shipper = await organization(app, platform, 'Shipper');
  const events = await watchEvents(platform.store);
  t.equal((await as(null).post('/api/account/2fa/setup', {})).status, 401);

  const setup = await as(shipper).post('/api/account/2fa/setup', {});
  t.equal(setup.status, 200);
  const { secret, otpauthUrl, qrSvg } = setup.body;
  t.match(secret, /^[A-Z2-7]{32}$/, 'a 160-bit base32 secret');
  t.match(otpauthUrl, /^otpauth:\/\/totp\/Freight%20Marketplace:.+\?.*secret=/);
  t.match(qrSvg, /^<svg[\s\S]*<\/svg>\s*$/);
  const [started] = await events.expect(t, [
    { type: 'TwoFactorSetupStarted', stream: userStream(shipper.userId) },
  ]);
  const sealed = String(started!.data.sealedSecret);
  t.match(sealed, /^v1\./, 'the secret is kept sealed');
  t.notOk(JSON.stringify(started!.data).includes(secret), 'never in clear');
  t.notOk('sealedSecret' in publicEvent(started!).data, 'nor shown in the feed');

  const stillOff = await login(app, { email: shipper.email }, { address: '10.0.1.1' });
  t.equal(stillOff.status, 200, 'nothing is on before the confirmation');
  t.match(stillOff.body.user.twoFactor, { enabled: false, mustEnrol: false });
  await events.take();

  const wrong = await as(shipper).post('/api/account/2fa/confirm', { code: '000000' });
  t.equal(wrong.status, 400);
  t.equal(wrong.body.message, 'The code is not valid');
  t.equal(wrong.body.code, 'two_factor_code_invalid');
  await events.expect(t, []);

  const confirmed = await as(shipper).post('/api/account/2fa/confirm', { code: codeOf(secret) });
  t.equal(confirmed.status, 200);
  const { recoveryCodes } = confirmed.body;
  t.equal(recoveryCodes.length, 10);
  t.equal(new Set(recoveryCodes).size, 10, 'ten different recovery codes');
  const [enabled] = await events.expect(t, [
    { type: 'TwoFactorEnabled', stream: userStream(shipper.userId) },
  ]);
  const stored = JSON.stringify(enabled!.data);
  t.notOk(
    recoveryCodes.some((code: string) => stored.includes(code)),
    'the recovery codes only as hashes',
  );
  t.equal((enabled!.data.recoveryCodeHashes as string[]).length, 10);
  t.notOk('recoveryCodeHashes' in publicEvent(enabled!).data, 'nor their hashes in the feed');

  t.match((await as(shipper).get('/api/profile')).body.twoFactor, { enabled: true });
  t.equal((await as(shipper).post('/api/account/2fa/setup', {})).status, 409, 'already on');
  t.equal(
    (await as(shipper).post('/api/account/2fa/confirm', { code: codeOf(secret) })).status,
    409,
    'the recovery codes are never shown again',
  );
});

t.test('sign-in with a code: asked for, checked, each code and recovery code once', async (t) => {
  await awayFromStepEdge();
  const carrier = await organization(app, platform, 'Carrier');
  const { secret, recoveryCodes } = await enrol(app, carrier);
  const device = { address: '10.0.2.1' };
  const events = await watchEvents(platform.store);

  const asked = await login(app, { email: carrier.email }, device);
  t.equal(asked.status, 401);
  t.equal(asked.body.code, 'two_factor_required');
  t.notOk(asked.body.accessToken, 'no session yet');
  t.equal(
    (await login(app, { email: carrier.email, password: 'wrong-password' }, device)).body.code,
    'invalid_credentials',
    'a wrong password is told as before, not that a code is wanted',
  );

  const wrong = await login(app, { email: carrier.email, code: '123456' }, device);
  t.equal(wrong.status, 401);
  t.equal(wrong.body.message, 'The code is not valid');
  await events.expect(t, []);

  const code = codeOf(secret);
  const signedIn = await login(app, { email: carrier.email, code }, device);
  t.equal(signedIn.status, 200);
  t.ok(signedIn.body.accessToken);
  const used = await events.take({ types: ['TwoFactorCodeUsed'] });
  t.equal(used.length, 1, 'the code is spent');
  t.equal((await as(signedIn.body.accessToken).get('/api/account')).status, 200);

  const replayed = await login(app, { email: carrier.email, code }, device);
  t.equal(replayed.status, 401, 'the same code again is refused');
  t.equal(replayed.body.message, 'The code is not valid');
  t.equal(
    (await login(app, { email: carrier.email, code: codeOf(secret, -1) }, device)).status,
    401,
    'and so is an earlier one',
  );
  await events.expect(t, []);
  t.equal(
    (await login(app, { email: carrier.email, code: codeOf(secret, 1) }, device)).status,
    200,
    'the next period’s code works',
  );
  await events.take();

  const recovery = recoveryCodes[3];
  const byRecovery = await login(
    app,
    { email: carrier.email, code: recovery.toUpperCase() },
    device,
  );
  t.equal(byRecovery.status, 200, 'a recovery code signs in (in any case)');
  const [spent] = await events.expect(t, [
    { type: 'RecoveryCodeUsed', stream: userStream(carrier.userId), data: { remaining: 9 } },
  ]);
  t.notOk('codeHash' in publicEvent(spent!).data, 'the feed hides which code it was');
  t.notOk(JSON.stringify(spent!.data).includes(recovery), 'never in clear');
  const again = await login(app, { email: carrier.email, code: recovery }, device);
  t.equal(again.status, 401, 'a recovery code works once');
  t.equal(
    (await login(app, { email: carrier.email, code: recoveryCodes[4] }, device)).status,
    200,
    'the others still work',
  );
});

t.test(
  'a secret sealed under a key the server no longer holds: codes fail, recovery codes still work',
  async (t) => {
    const carrier = await organization(app, platform, 'Carrier');
    // What a SECRETS_KEY replaced without the old one leaves in the log: a secret sealed under another key.
    const otherKey = createSecretBox(randomBytes(32).toString('hex'));
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const recovery = 'a1b2c-3d4e5';
    const now = new Date().toISOString();
    await platform.identity.user(
      {
        type: 'StartTwoFactorSetup',
        data: {
          userId: carrier.userId,
          sealedSecret: otherKey.seal(secret, twoFactorContext(carrier.userId)),
          now,
        },
      },
      null,
      now,
    );
    await platform.identity.user(
      {
        type: 'EnableTwoFactor',
        data: {
          userId: carrier.userId,
          recoveryCodeHashes: [hashRecoveryCode(recovery)],
          step: 1,
          now,
        },
      },
      null,
      now,
    );
    const device = { address: '10.0.7.1' };
    const byCode = await login(app, { email: carrier.email, code: codeOf(secret) }, device);
    t.equal(byCode.status, 401, 'a code of the app is refused, not a server error');
    t.equal(byCode.body.message, 'The code is not valid');
    t.equal(
      (await login(app, { email: carrier.email, code: recovery }, device)).status,
      200,
      'a recovery code signs in',
    );
  },
);

t.test('wrong codes count against the sign-in limit', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  await enrol(app, shipper);
  const device = { address: '10.0.3.1' };
  for (let attempt = 0; attempt < 10; attempt++)
    t.equal(
      (await login(app, { email: shipper.email, code: '999999' }, device)).status,
      401,
      `wrong code ${attempt + 1}`,
    );
  const limited = await login(app, { email: shipper.email, code: '999999' }, device);
  t.equal(limited.status, 429, 'then the sign-in is limited');
  t.match(limited.body.message, /^Too many failed sign-ins/);
});

t.test('turning it off takes the password and a code', async (t) => {
  await awayFromStepEdge();
  const shipper = await organization(app, platform, 'Shipper');
  const { secret } = await enrol(app, shipper);
  const events = await watchEvents(platform.store);
  const wrongPassword = await as(shipper).delete('/api/account/2fa', {
    password: 'not-it',
    code: codeOf(secret),
  });
  t.equal(wrongPassword.status, 400);
  t.equal(wrongPassword.body.code, 'old_password_wrong');
  const wrongCode = await as(shipper).delete('/api/account/2fa', {
    password: PASSWORD,
    code: '000000',
  });
  t.equal(wrongCode.status, 400);
  t.equal(wrongCode.body.message, 'The code is not valid');
  await events.expect(t, []);

  const off = await as(shipper).delete('/api/account/2fa', {
    password: PASSWORD,
    code: codeOf(secret),
  });
  t.equal(off.status, 204);
  await events.expect(t, [
    { type: 'TwoFactorCodeUsed', stream: userStream(shipper.userId) },
    { type: 'TwoFactorDisabled', stream: userStream(shipper.userId) },
  ]);
  const plain = await login(app, { email: shipper.email }, { address: '10.0.4.1' });
  t.equal(plain.status, 200, 'the password alone signs in again');
  t.equal(
    (await as(shipper).delete('/api/account/2fa', { password: PASSWORD, code: '1' })).status,
    409,
  );
});

t.test(
  'an organization that requires two-factor sends its members to enrol at the next sign-in',
  async (t) => {
    await awayFromStepEdge();
    const manager = await organization(app, platform, 'Carrier', { name: 'Careful Freight' });
    const colleague = await member(app, platform, manager.organizationId!, 4);
    // The organization's own e-mail and phone: nothing of the contact waits (organizationContactHold.spec.ts).
    const { email, phone } = (await as(manager).get('/api/account')).body.organization;
    const body = {
      name: 'Careful Freight',
      address: '1 Main St, Chicago, IL',
      person: 'Pat',
      email,
      phone,
    };
    const events = await watchEvents(platform.store);
    t.equal(
      (await as(colleague).put('/api/users/organization', { ...body, twoFactorRequired: true }))
        .status,
      403,
      'only a manager sets it (not a driver)',
    );
    t.equal(
      (await as(manager).put('/api/users/organization', { ...body, twoFactorRequired: true }))
        .status,
      200,
    );
    await events.expect(t, [
      { type: 'OrganizationContactChanged', stream: organizationStream(manager.organizationId!) },
      {
        type: 'OrganizationTwoFactorPolicyChanged',
        stream: organizationStream(manager.organizationId!),
        data: { organizationId: manager.organizationId, twoFactorRequired: true },
      },
    ]);
    t.equal(
      (await as(colleague).get('/api/account')).status,
      200,
      'a session begun before works on until its next sign-in',
    );

    const device = { address: '10.0.5.1' };
    const signedIn = await login(app, { email: colleague.email }, device);
    t.equal(signedIn.status, 200, 'the sign-in itself succeeds');
    t.match(signedIn.body.user.twoFactor, {
      enabled: false,
      mustEnrol: true,
      organizationRequired: true,
    });
    const token = signedIn.body.accessToken as string;
    const refused = await as(token).get('/api/account');
    t.equal(refused.status, 403, 'every other call waits for the enrolment');
    t.equal(refused.body.code, 'two_factor_enrolment_required');
    t.equal((await as(token).get('/api/profile')).status, 200, 'the profile answers');

    const { secret } = await enrol(app, token);
    t.ok(secret, 'the enrolment answers');
    const refreshed = await as(null).post('/api/refresh-token', {
      refreshToken: signedIn.body.refreshToken,
    });
    t.equal(refreshed.status, 200);
    t.equal(
      (await as(refreshed.body.accessToken).get('/api/account')).status,
      200,
      'once enrolled, a refreshed session works',
    );
    const next = await login(app, { email: colleague.email, code: codeOf(secret) }, device);
    t.equal(next.status, 200);
    t.match(next.body.user.twoFactor, { enabled: true, mustEnrol: false });
  },
);

t.test('a sign-in from a new browser or address is e-mailed to the user', async (t) => {
  const carrier = await organization(app, platform, 'Carrier');
  // The fixture signed in once from the test's own address and browser.
  const events = await watchEvents(platform.store);
  const mails = async () =>
    (await platform.mailer.listOutbox(500)).filter(
      (mail) => mail.to === carrier.email && mail.subject.startsWith('New sign-in'),
    );
  const devices = () =>
    platform.database.db
      .selectFrom('known_devices')
      .select(['address', 'user_agent'])
      .where('user_id', '=', carrier.userId)
      .orderBy('first_seen_at')
      .execute();
  t.equal((await login(app, { email: carrier.email }, { address: '127.0.0.1' })).status, 200);
  t.same(await mails(), [], 'a known device: no e-mail');

  const elsewhere = {
    address: '203.0.113.9',
    userAgent: 'Mozilla/5.0 (X11; Linux) Firefox/133.0',
  };
  t.equal((await login(app, { email: carrier.email }, elsewhere)).status, 200);
  const [mail, ...more] = await mails();
  t.same(more, [], 'one e-mail');
  t.match(mail!.text, /203\.0\.113\.9/);
  t.match(mail!.text, /Firefox\/133\.0/);
  t.same(
    (await devices()).map((device) => device.address),
    ['127.0.0.1', '203.0.113.9'],
    'both devices are known',
  );

  t.equal((await login(app, { email: carrier.email }, elsewhere)).status, 200);
  t.equal((await mails()).length, 1, 'known from then on');
  await events.expect(t, [], { message: 'devices are kept beside the sessions, not in the log' });
});

t.test('a Superadmin is sent to enrol where SUPERADMIN_TWO_FACTOR is on', async (t) => {
  const strict = await startTestApp({ superadminTwoFactor: true });
  t.teardown(strict.close);
  await awayFromStepEdge();
  // The fixture signs in too: its session must enrol.
  const admin = await superadmin(strict.app, strict.platform);
  const ask = requester(strict.app);
  const refused = await ask(admin).get('/api/users', { page: 1, pageSize: 5 });
  t.equal(refused.status, 403);
  t.equal(refused.body.code, 'two_factor_enrolment_required');
  t.match((await ask(admin).get('/api/profile')).body.twoFactor, {
    enabled: false,
    mustEnrol: true,
  });
  await strict.app.listen({ port: 0, host: '127.0.0.1' });
  const address = strict.app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const socket = connectSocket(baseUrl, admin.token);
  await t.rejects(
    connected(socket),
    { message: 'Set up two-factor sign-in first' },
    'nor does the socket let it in',
  );
  socket.close();
  const { secret, recoveryCodes } = await enrol(strict.app, admin);
  t.equal(recoveryCodes.length, 10);
  const device = { address: '10.0.6.1' };
  t.equal(
    (await login(strict.app, { email: admin.email }, device)).body.code,
    'two_factor_required',
  );
  const signedIn = await login(strict.app, { email: admin.email, code: codeOf(secret) }, device);
  t.equal(signedIn.status, 200);
  t.equal((await ask(signedIn.body.accessToken).get('/api/users')).status, 200);
  const enrolledSocket = await connected(connectSocket(baseUrl, signedIn.body.accessToken));
  t.ok(enrolledSocket.connected, 'once enrolled the socket connects');
  enrolledSocket.close();

  // Elsewhere (the default of the test app and the demo) the Superadmin signs in with its password.
  const relaxed = await superadmin(app, platform);
  t.equal((await as(relaxed).get('/api/users')).status, 200);
});
