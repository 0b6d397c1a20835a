/**
 * Webhook addresses written as IPv6 that carry an IPv4 inside (IPv4-compatible, mapped, translated,
 * 6to4, NAT64, Teredo, ISATAP): refused when the IPv4 is not public, at creation (400 on `url`) and
 * again before each attempt; the same forms of a public IPv4, and plain public IPv6, still pass.
 */
import t from 'tap';
import { bearer, organization } from '../identity/fixtures.ts';
import { startTestApp } from '../testing/testApp.ts';
import { isNonPublicAddress, resolveWebhookTarget } from './addresses.ts';
import { defaultWebhookSettings } from './settings.ts';

const PUBLIC_ONLY =
  'The URL must point to a public address, not a private, loopback or link-local one';

/** Each form with a non-public IPv4 inside, and what it hides. */
const refused: [string, string][] = [
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::7f00:1', 'IPv4-compatible loopback, in hex'],
  ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254 (cloud metadata)'],
  ['::10.0.0.1', 'IPv4-compatible 10.0.0.1'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:c0a8:101', 'IPv4-mapped 192.168.1.1'],
  ['::ffff:0:7f00:1', 'IPv4-translated (SIIT) loopback'],
  ['::ffff:0:a9fe:a9fe', 'IPv4-translated 169.254.169.254'],
  ['2002:7f00:1::', '6to4 of the loopback'],
  ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
  ['2002:c0a8:101:1::1', '6to4 of 192.168.1.1'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, loopback'],
  ['64:ff9b::a00:1', 'NAT64 well-known prefix, 10.0.0.1'],
  ['64:ff9b:1::a00:1', 'NAT64 local-use prefix, 10.0.0.1'],
  ['64:ff9b:1:abcd::a9fe:a9fe', 'NAT64 local-use prefix, 169.254.169.254'],
  ['2001:0:7f00:1::1', 'Teredo with a loopback server'],
  ['2001:0:808:808:0:0:80ff:fffe', 'Teredo with a loopback client (inverted)'],
  ['2606:4700:1::5efe:a00:1', 'ISATAP of 10.0.0.1'],
  ['2606:4700:1::200:5efe:7f00:1', 'ISATAP (universal) of the loopback'],
];
/** Public controls: they must keep passing. */
const allowed: [string, string][] = [
  ['2606:4700:4700::1111', 'a public IPv6 address'],
  ['2002:808:808::', '6to4 of 8.8.8.8'],
  ['::ffff:808:808', 'IPv4-mapped 8.8.8.8'],
  ['64:ff9b:1::808:808', 'NAT64 local-use prefix, 8.8.8.8'],
  ['2606:4700:1::5efe:808:808', 'ISATAP of 8.8.8.8'],
];

t.test('the address check sees the IPv4 inside every IPv6 form', async (t) => {
  for (const [address, form] of refused) t.ok(isNonPublicAddress(address), `${address}: ${form}`);
  for (const [address, form] of allowed)
    t.notOk(isNonPublicAddress(address), `${address}: ${form}`);
});

t.test(
  'a URL or a resolved name with such an address is refused before any connection',
  async (t) => {
    for (const [address, form] of refused) {
      await t.rejects(
        resolveWebhookTarget(`https://[${address}]/hook`, false),
        { message: PUBLIC_ONLY },
        `https://[${address}]/: ${form}`,
      );
      await t.rejects(
        resolveWebhookTarget('https://hooks.example.com/', false, async () => [
          { address, family: 6 },
        ]),
        { message: PUBLIC_ONLY },
        `a name resolving to ${address}`,
      );
    }
    for (const [address, form] of allowed)
      t.match(
        await resolveWebhookTarget(`https://[${address}]/hook`, false),
        { family: 6 },
        `https://[${address}]/: ${form}`,
      );
  },
);

const strict = await startTestApp({
  webhooks: { ...defaultWebhookSettings(false), pollMs: 30, timeoutMs: 1500 },
});
t.teardown(strict.close);
const owner = await organization(strict.app, strict.platform, 'Shipper');
const create = (url: string) =>
  strict.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: bearer(owner.token),
    payload: { url, events: ['load.posted'] },
  });
const remove = (id: string) =>
  strict.app.inject({ method: 'DELETE', url: `/api/webhooks/${id}`, headers: bearer(owner.token) });

t.test('creating an endpoint: 400 on url for each form, 201 for the public controls', async (t) => {
  for (const [address, form] of refused) {
    const answer = await create(`https://[${address}]:8443/hook`);
    t.equal(answer.statusCode, 400, `${address}: ${form}`);
    t.match(
      answer.json(),
      { message: PUBLIC_ONLY, errors: [{ path: 'url', message: PUBLIC_ONLY }] },
      'names url',
    );
  }
  for (const [address, form] of allowed) {
    const answer = await create(`https://[${address}]/hook`);
    t.equal(answer.statusCode, 201, `${address}: ${form}`);
    await remove(answer.json().id);
  }
});

t.test(
  'an endpoint stored with such an address is refused again at each attempt, nothing sent',
  async (t) => {
    const answer = await create('https://93.184.216.34/hook');
    t.equal(answer.statusCode, 201);
    const { id } = answer.json();
    t.teardown(() => remove(id));
    // As if it had been stored before this check existed (or by a name that now resolves so).
    await strict.platform.database.db
      .updateTable('webhook_endpoints')
      .set({ url: 'https://[::ffff:0:7f00:1]/hook' })
      .where('id', '=', id)
      .execute();
    const sent = await strict.app.inject({
      method: 'POST',
      url: `/api/webhooks/${id}/test`,
      headers: bearer(owner.token),
    });
    t.equal(sent.statusCode, 202);
    const row = async () =>
      strict.platform.database.db
        .selectFrom('webhook_deliveries')
        .select(['attempts', 'status', 'response_status', 'error'])
        .where('endpoint_id', '=', id)
        .executeTakeFirstOrThrow();
    const deadline = Date.now() + 10_000;
    while ((await row()).attempts === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    t.match(
      await row(),
      { attempts: 1, status: 'retrying', response_status: null, error: PUBLIC_ONLY },
      'the attempt is refused by the check, with its reason',
    );
  },
);
