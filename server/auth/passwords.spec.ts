import t from 'tap';
import { DUMMY_PASSWORD_HASH, hashPassword, needsRehash, verifyPassword } from './passwords.ts';

t.test('hashes with argon2id at m=19456, t=2, p=1', async (t) => {
  const stored = await hashPassword('correct horse battery staple');
  t.match(stored, /^\$argon2id\$/);
  t.ok(stored.includes('m=19456,t=2'), stored);
  t.ok(stored.includes('p=1'));
  t.not(stored, await hashPassword('correct horse battery staple'), 'salted: two hashes differ');
  t.notOk(needsRehash(stored));
  t.ok(
    needsRehash(
      '$argon2id$v=19$m=4096,t=1,p=1$c2FsdHNhbHRzYWx0$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo',
    ),
  );
  t.ok(needsRehash('not a hash'));
});

t.test('verifies the right password and refuses a wrong one', async (t) => {
  const stored = await hashPassword('s3cret-pass');
  t.equal(await verifyPassword(stored, 's3cret-pass'), true);
  t.equal(await verifyPassword(stored, 's3cret-pasS'), false);
  t.equal(await verifyPassword(stored, ''), false);
  t.equal(
    await verifyPassword('garbage', 's3cret-pass'),
    false,
    'a malformed hash is a refusal, not a crash',
  );
});

t.test('an unknown account is verified against the dummy hash and always refused', async (t) => {
  t.match(DUMMY_PASSWORD_HASH, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  t.equal(await verifyPassword(null, 'anything'), false);
  t.equal(await verifyPassword(undefined, ''), false);
  // Same work either way: alternate the two so a load spike hits both, and compare medians.
  const stored = await hashPassword('s3cret-pass');
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < 9; i += 1) {
    for (const [kind, hash] of [
      ['known', stored],
      ['unknown', null],
    ] as const) {
      const start = performance.now();
      await verifyPassword(hash, 'wrong-password');
      times[kind].push(performance.now() - start);
    }
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const known = median(times.known);
  const unknown = median(times.unknown);
  t.comment(
    `verify median: known account ${known.toFixed(1)} ms, unknown account ${unknown.toFixed(1)} ms`,
  );
  t.ok(Math.abs(known - unknown) < Math.max(known, unknown) * 0.5 + 5, 'similar timing');
});
