import t from 'tap';
import { createLoginLimiter, normaliseAccount } from './loginLimiter.ts';

const setup = (options: Parameters<typeof createLoginLimiter>[0] = {}) => {
  const clock = { at: Date.parse('2026-11-22T10:00:00Z') };
  const limiter = createLoginLimiter({ now: () => clock.at, ...options });
  return { clock, limiter };
};

t.test(
  '10 failures a minute per account, then a Retry-After until the window slides',
  async (t) => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 10; i += 1) {
      t.same(
        limiter.check('alice@example.com', `10.0.0.${i}`),
        { allowed: true },
        `attempt ${i + 1} allowed`,
      );
      limiter.fail('alice@example.com', `10.0.0.${i}`);
      clock.at += 1_000;
    }
    // Addresses rotate (as with a rotated X-Forwarded-For): the account limit still holds.
    t.same(limiter.check('alice@example.com', '10.9.9.9'), {
      allowed: false,
      retryAfterSeconds: 50,
    });
    t.same(
      limiter.check('  ALICE@Example.com ', '10.9.9.9'),
      { allowed: false, retryAfterSeconds: 50 },
      'normalised account',
    );
    t.same(
      limiter.check('bob@example.com', '10.9.9.9'),
      { allowed: true },
      'other accounts are not affected',
    );
    clock.at += 49_000;
    t.same(limiter.check('alice@example.com', '10.9.9.9'), {
      allowed: false,
      retryAfterSeconds: 1,
    });
    clock.at += 1_000;
    t.same(
      limiter.check('alice@example.com', '10.9.9.9'),
      { allowed: true },
      'the first failure slid out of the window',
    );
    limiter.fail('alice@example.com', '10.9.9.9');
    t.same(
      limiter.check('alice@example.com', '10.9.9.9'),
      { allowed: false, retryAfterSeconds: 1 },
      'sliding, not fixed: one slot freed, one used',
    );
  },
);

t.test('10 failures a minute per client address, across accounts', async (t) => {
  const { clock, limiter } = setup();
  for (let i = 0; i < 10; i += 1) limiter.fail(`user${i}@example.com`, '203.0.113.7');
  const decision = limiter.check('new@example.com', '203.0.113.7');
  t.same(decision, { allowed: false, retryAfterSeconds: 60 });
  t.same(
    limiter.check('new@example.com', '203.0.113.8'),
    { allowed: true },
    'another address may try',
  );
  clock.at += 60_000;
  t.same(limiter.check('new@example.com', '203.0.113.7'), { allowed: true });
});

t.test('at most 100 failures an hour per account', async (t) => {
  const { clock, limiter } = setup();
  let failures = 0;
  for (let minute = 0; minute < 60; minute += 1) {
    for (let i = 0; i < 20; i += 1) {
      if (limiter.check('target', `198.51.100.${(minute * 20 + i) % 250}`).allowed) {
        limiter.fail('target', `198.51.100.${(minute * 20 + i) % 250}`);
        failures += 1;
      }
      clock.at += 3_000;
    }
  }
  t.comment(`failures allowed in one hour for one account: ${failures}`);
  t.ok(failures <= 100, `${failures} ≤ 100`);
  t.ok(
    failures >= 90,
    'the per-minute rule alone would have allowed far more; the hourly cap is what stops it',
  );
});

t.test('at most 100 failures an hour per client address, across accounts', async (t) => {
  const { clock, limiter } = setup();
  let failures = 0;
  for (let minute = 0; minute < 60; minute += 1) {
    for (let i = 0; i < 20; i += 1) {
      const account = `spray-${minute}-${i}@example.com`;
      if (limiter.check(account, '203.0.113.50').allowed) {
        limiter.fail(account, '203.0.113.50');
        failures += 1;
      }
      clock.at += 3_000;
    }
  }
  t.comment(`failures allowed in one hour from one address: ${failures}`);
  t.ok(failures <= 100, `${failures} ≤ 100`);
  t.ok(
    failures >= 90,
    'the per-minute rule alone would have allowed far more; the hourly cap is what stops it',
  );
});

t.test('a success clears the account but not the address', async (t) => {
  const { limiter } = setup();
  for (let i = 0; i < 10; i += 1) limiter.fail('carol', '192.0.2.10');
  t.equal(limiter.check('carol', '192.0.2.99').allowed, false);
  limiter.succeed('Carol');
  t.equal(limiter.check('carol', '192.0.2.99').allowed, true);
  t.equal(limiter.check('carol', '192.0.2.10').allowed, false, 'the address is still limited');
});

t.test('memory stays bounded', async (t) => {
  const { clock, limiter } = setup({ maxKeys: 1_000 });
  for (let i = 0; i < 20_000; i += 1) {
    limiter.fail(`spray${i}@example.com`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    if (i % 100 === 0) clock.at += 10;
  }
  const size = limiter.size();
  t.ok(size.accounts <= 1_000 && size.addresses <= 1_000, `bounded: ${JSON.stringify(size)}`);
  // Entries past every window are dropped when they are next looked at.
  clock.at += 3_600_001;
  limiter.fail('fresh', '127.0.0.1');
  t.equal(limiter.check('spray19999@example.com', '10.0.78.31').allowed, true);
});

t.test('normaliseAccount', async (t) => {
  t.equal(normaliseAccount('  Alice@Example.COM '), 'alice@example.com');
  t.equal(normaliseAccount('ａｌｉｃｅ'), 'alice', 'full-width forms fold to ASCII');
});

t.test(
  'an account known by several names: one failure counts for each name, and once for the address',
  async (t) => {
    const { limiter } = setup();
    for (let i = 0; i < 10; i += 1) limiter.fail(['carol@example.com', 'Carol'], `10.3.0.${i}`);
    t.same(
      limiter.check('carol', '10.9.9.9'),
      { allowed: false, retryAfterSeconds: 60 },
      'limited by its username',
    );
    t.same(
      limiter.check('CAROL@example.com', '10.9.9.9'),
      { allowed: false, retryAfterSeconds: 60 },
      'and by its e-mail',
    );
    t.same(
      limiter.check('dave@example.com', '10.3.0.1'),
      { allowed: true },
      'each address counted once',
    );
    limiter.succeed(['carol@example.com', 'carol']);
    t.same(
      limiter.check(['carol@example.com', 'carol'], '10.9.9.9'),
      { allowed: true },
      'a success clears both',
    );
  },
);
