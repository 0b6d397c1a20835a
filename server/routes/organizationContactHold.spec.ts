/**
 * The 24-hour hold on a new contact e-mail or phone of an organization: `PUT users/organization`
 * with a new e-mail or phone needs the caller's password (and a code when it has two-factor on),
 * answers 202 `{pendingUntil}` and changes nothing of the contact yet; the old contact e-mail gets
 * the link that cancels it (`POST organizations/changes/{token}/cancel`, once), the managers are
 * told; the scheduler applies it once due (its sweep driven here with a `now` a day later), never a
 * cancelled or replaced one.
 */
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { publicEvent } from '../../domain/shared/publicEvent.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { totpCodeAt } from '../auth/twoFactor.ts';
import { member, organization, PASSWORD, type Member } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const events = await watchEvents(platform.store);
const sweep = platform.contactChanges!;

const DAY_MS = 24 * 60 * 60 * 1000;
const LINK = /\/organization-change\/([A-Za-z0-9_-]{43})\/cancel/;

/** The organization's contact as Account Settings shows it. */
async function contactOf(who: Member) {
  const { address, person, email, phone, name, pendingContactChange } = (
    await as(who).get('/api/account')
  ).body.organization;
  return { address, person, email, phone, name, pendingContactChange };
}

/** The mails sent to `to` since the test began, newest first. */
const mailsTo = async (to: string) =>
  (await platform.mailer.listOutbox(500)).filter((mail) => mail.to === to);

/** The cancel link's token in the newest mail to the old contact. */
async function tokenMailedTo(to: string) {
  const [mail] = await mailsTo(to);
  const token = mail?.text.match(LINK)?.[1];
  if (!token) throw new Error(`no cancel link mailed to ${to}`);
  return token;
}

const newContact = (tag: string) => ({
  address: `${tag} Elm St, Dallas, TX`,
  person: `Bo ${tag}`,
  email: `billing-${tag}@elsewhere.example`,
  phone: '555-555-0199',
});

t.test(
  'a new e-mail waits 24 hours: password needed, 202 pendingUntil, nothing changed yet, the old contact and the managers mailed',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Goods' });
    const colleague = await member(app, platform, shipper.organizationId!, Role.Shipper);
    const before = await contactOf(shipper);
    const stream = organizationStream(shipper.organizationId!);
    const next = newContact('1');
    const body = { name: 'Acme Goods LLC', ...next };
    await events.take();

    const missing = await as(shipper).put('/api/users/organization', body);
    t.equal(missing.status, 400);
    t.match(missing.body, {
      message: 'Please enter your current password',
      code: 'old_password_required',
      errors: [{ path: 'password', code: 'old_password_required' }],
    });
    const wrong = await as(shipper).put('/api/users/organization', {
      ...body,
      password: 'not-my-password',
    });
    t.equal(wrong.status, 400);
    t.match(wrong.body, {
      message: 'Current password is incorrect',
      code: 'old_password_wrong',
      errors: [{ path: 'password' }],
    });
    await events.expect(t, [], { message: 'nothing written without the right password' });

    const asked = Date.now();
    const held = await as(shipper).put('/api/users/organization', { ...body, password: PASSWORD });
    t.equal(held.status, 202);
    t.same(Object.keys(held.body), ['pendingUntil']);
    const pendingUntil = Date.parse(held.body.pendingUntil);
    t.ok(
      pendingUntil >= asked + DAY_MS - 1000 && pendingUntil <= Date.now() + DAY_MS,
      'pending for 24 hours',
    );
    const [renamed, requested] = await events.expect(
      t,
      [
        { type: 'OrganizationContactChanged', stream, data: { name: 'Acme Goods LLC' } },
        {
          type: 'OrganizationContactChangeRequested',
          stream,
          data: {
            organizationId: shipper.organizationId,
            requestedBy: shipper.userId,
            pendingUntil: held.body.pendingUntil,
            contact: next,
            previous: {
              address: before.address,
              person: before.person,
              email: before.email,
              phone: before.phone,
            },
          },
        },
      ],
      { stream },
    );
    t.same(
      renamed!.data.contact,
      { address: before.address, person: before.person, email: before.email, phone: before.phone },
      'the name applies at once, the contact not',
    );
    t.match(requested!.data.tokenHash, /^[0-9a-f]{64}$/);
    t.notOk('tokenHash' in publicEvent(requested!).data, 'the hash is never shown');

    const now = await contactOf(shipper);
    t.match(now, {
      name: 'Acme Goods LLC',
      email: before.email,
      phone: before.phone,
      address: before.address,
      pendingContactChange: { ...next, pendingUntil: held.body.pendingUntil },
    });

    const [oldContactMail] = await mailsTo(before.email);
    t.ok(oldContactMail, 'the old contact e-mail is told');
    t.match(oldContactMail!.text, next.email);
    t.match(oldContactMail!.text, held.body.pendingUntil.slice(0, 16).replace('T', ' '));
    const token = await tokenMailedTo(before.email);
    t.equal(hashShareToken(token), requested!.data.tokenHash, 'the link is the one recorded');
    t.match(
      oldContactMail!.text,
      `${platform.config.publicUrl}/organization-change/${token}/cancel`,
    );
    for (const manager of [shipper, colleague]) {
      const [mail] = await mailsTo(manager.email);
      t.match(mail?.subject, /pending/, `${manager.email}: the manager hears of it`);
      t.notMatch(mail?.text, token, 'without the cancel link');
    }

    t.equal(await sweep.sweep(new Date(pendingUntil - 1).toISOString()), 0, 'not before its time');
    t.match(await contactOf(shipper), { email: before.email });
    await events.expect(t, [], { stream });

    t.equal(await sweep.sweep(new Date(pendingUntil + 1000).toISOString()), 1, 'applied when due');
    await events.expect(
      t,
      [
        {
          type: 'OrganizationContactChanged',
          stream,
          data: { contact: next, name: 'Acme Goods LLC', changeId: requested!.data.changeId },
        },
      ],
      { stream },
    );
    t.match(await contactOf(shipper), { ...next, pendingContactChange: null });
    await platform.runner.waitFor(
      ['organizationContactChanges'],
      await platform.store.committedHead(),
    );
    t.equal(await sweep.sweep(new Date(pendingUntil + 2000).toISOString()), 0, 'once');
    t.equal(
      (await as(null).post(`/api/organizations/changes/${token}/cancel`)).status,
      404,
      'an applied change is no longer cancelled',
    );
  },
);

t.test('the same e-mail and phone apply at once, without a password', async (t) => {
  const carrier = await organization(app, platform, 'Carrier');
  const before = await contactOf(carrier);
  const saved = await as(carrier).put('/api/users/organization', {
    name: before.name,
    address: '2 Main St, Chicago, IL',
    person: 'Pat Other',
    email: ` ${before.email.toUpperCase()} `,
    phone: '(555) 555-0101',
  });
  t.equal(saved.status, 200);
  t.match(await contactOf(carrier), {
    address: '2 Main St, Chicago, IL',
    person: 'Pat Other',
    pendingContactChange: null,
  });
});

t.test('cancelled by the old contact through its link, once; never applied', async (t) => {
  const shipper = await organization(app, platform, 'Shipper', { name: 'Careful Goods' });
  const before = await contactOf(shipper);
  const stream = organizationStream(shipper.organizationId!);
  const held = await as(shipper).put('/api/users/organization', {
    name: before.name,
    ...newContact('2'),
    password: PASSWORD,
  });
  t.equal(held.status, 202);
  const token = await tokenMailedTo(before.email);
  const [requested] = await events.take({ stream, types: ['OrganizationContactChangeRequested'] });
  t.equal(requested!.type, 'OrganizationContactChangeRequested');

  t.equal((await as(null).post('/api/organizations/changes/not-a-token/cancel')).status, 404);
  const cancelled = await as(null).post(`/api/organizations/changes/${token}/cancel`);
  t.equal(cancelled.status, 200);
  t.same(cancelled.body, { cancelled: true });
  await events.expect(
    t,
    [
      {
        type: 'OrganizationContactChangeCancelled',
        stream,
        data: {
          organizationId: shipper.organizationId,
          changeId: requested!.data.changeId,
          cancelledBy: 'old-contact',
        },
      },
    ],
    { stream },
  );
  const again = await as(null).post(`/api/organizations/changes/${token}/cancel`);
  t.equal(again.status, 404, 'once');
  t.equal(again.body.message, 'This change does not exist, was cancelled or has applied already');
  const [managerMail] = await mailsTo(shipper.email);
  t.match(managerMail?.subject, /cancelled/, 'the managers hear of it');

  await sweep.sweep(new Date(Date.now() + 2 * DAY_MS).toISOString());
  await events.expect(t, [], { stream, message: 'a cancelled change never applies' });
  t.match(await contactOf(shipper), { email: before.email, pendingContactChange: null });
});

t.test('a second request replaces the first, whose link no longer works', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const before = await contactOf(shipper);
  const stream = organizationStream(shipper.organizationId!);
  await as(shipper).put('/api/users/organization', {
    name: before.name,
    ...newContact('3'),
    password: PASSWORD,
  });
  const firstToken = await tokenMailedTo(before.email);
  const [first] = await events.take({ stream, types: ['OrganizationContactChangeRequested'] });
  const second = await as(shipper).put('/api/users/organization', {
    name: before.name,
    ...newContact('4'),
    password: PASSWORD,
  });
  t.equal(second.status, 202);
  const [, secondRequest] = await events.expect(
    t,
    [
      {
        type: 'OrganizationContactChangeCancelled',
        data: { changeId: first!.data.changeId, cancelledBy: shipper.userId },
      },
      { type: 'OrganizationContactChangeRequested', data: { contact: newContact('4') } },
    ],
    { stream },
  );
  t.equal(
    (await as(null).post(`/api/organizations/changes/${firstToken}/cancel`)).status,
    404,
    'the replaced change is not cancelled again',
  );
  t.match(await contactOf(shipper), { pendingContactChange: { email: newContact('4').email } });

  await sweep.sweep(new Date(Date.parse(second.body.pendingUntil) + 1000).toISOString());
  await events.expect(
    t,
    [{ type: 'OrganizationContactChanged', data: { changeId: secondRequest!.data.changeId } }],
    { stream },
  );
  t.match(await contactOf(shipper), newContact('4'));
});

t.test('two passes at once apply a change once (the stream revision decides)', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const before = await contactOf(shipper);
  const stream = organizationStream(shipper.organizationId!);
  const held = await as(shipper).put('/api/users/organization', {
    name: before.name,
    ...newContact('9'),
    password: PASSWORD,
  });
  await events.take();
  const due = new Date(Date.parse(held.body.pendingUntil) + 1000).toISOString();
  const applied = await Promise.all([sweep.sweep(due), sweep.sweep(due), sweep.sweep(due)]);
  t.equal(
    applied.reduce((sum, count) => sum + count, 0),
    1,
    'one pass applied it, the others found nothing to do',
  );
  await events.expect(t, ['OrganizationContactChanged'], { stream });
  t.match(await contactOf(shipper), { ...newContact('9'), pendingContactChange: null });
});

t.test('with two-factor on, a code is needed too (an app code or a recovery code)', async (t) => {
  const carrier = await organization(app, platform, 'Carrier');
  const setup = await as(carrier).post('/api/account/2fa/setup', {});
  const confirmed = await as(carrier).post('/api/account/2fa/confirm', {
    code: totpCodeAt(setup.body.secret, Date.now() - 30_000),
  });
  t.equal(confirmed.status, 200);
  const before = await contactOf(carrier);
  const body = { name: before.name, ...newContact('5'), password: PASSWORD };
  await events.take();

  const noCode = await as(carrier).put('/api/users/organization', body);
  t.equal(noCode.status, 400);
  t.match(noCode.body, {
    code: 'two_factor_required',
    errors: [{ path: 'code', code: 'two_factor_required' }],
  });
  const wrongCode = await as(carrier).put('/api/users/organization', { ...body, code: '000000' });
  t.equal(wrongCode.status, 400);
  t.match(wrongCode.body, {
    message: 'The code is not valid',
    errors: [{ path: 'code', code: 'two_factor_code_invalid' }],
  });
  const wrongPassword = await as(carrier).put('/api/users/organization', {
    ...body,
    password: 'nope-nope-nope',
    code: confirmed.body.recoveryCodes[0],
  });
  t.match(wrongPassword.body, { errors: [{ path: 'password' }] });
  await events.expect(t, [], { message: 'nothing written, no code spent' });

  const held = await as(carrier).put('/api/users/organization', {
    ...body,
    code: confirmed.body.recoveryCodes[0],
  });
  t.equal(held.status, 202);
  await events.expect(t, ['RecoveryCodeUsed', 'OrganizationContactChangeRequested']);
  t.match(await contactOf(carrier), { email: before.email });
});

t.test("another organization's member cannot touch the change", async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const other = await organization(app, platform, 'Shipper');
  const driverOrg = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, driverOrg.organizationId!, Role.Driver);
  const before = await contactOf(shipper);
  await as(shipper).put('/api/users/organization', {
    name: before.name,
    ...newContact('6'),
    password: PASSWORD,
  });
  const pending = (await contactOf(shipper)).pendingContactChange;
  t.ok(pending, 'a change waits');

  const theirs = await contactOf(other);
  const replaced = await as(other).put('/api/users/organization', {
    name: theirs.name,
    ...newContact('7'),
    password: PASSWORD,
  });
  t.equal(replaced.status, 202, 'the other organization changes only its own contact');
  t.same((await contactOf(shipper)).pendingContactChange, pending, 'ours is untouched');
  t.equal(
    (
      await as(driver).put('/api/users/organization', {
        name: 'X',
        ...newContact('8'),
        password: PASSWORD,
      })
    ).status,
    403,
    'a driver may not change an organization',
  );
  t.same((await contactOf(shipper)).pendingContactChange, pending);
});

t.test('the cancel links are rate-limited: 10 tries a minute per client', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++)
    statuses.push((await as(null).post(`/api/organizations/changes/guess-${i}/cancel`)).status);
  t.equal(statuses.at(-1), 429);
  t.ok(statuses.slice(0, 5).every((status) => status === 404));
});
