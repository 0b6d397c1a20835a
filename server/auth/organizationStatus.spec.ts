import t from 'tap';
import { createOrganizationStatusCache, isBlockedStatus } from './organizationStatus.ts';

t.test(
  'a status is read once per window, forgotten on change, and re-read when the window ends',
  async (t) => {
    let clock = 0;
    const statuses = new Map([['org', 1]]);
    let reads = 0;
    const cache = createOrganizationStatusCache({
      ttlMs: 3000,
      now: () => clock,
      load: async (id) => {
        reads += 1;
        return statuses.get(id) ?? null;
      },
    });
    t.equal(await cache.statusOf('org'), 1);
    statuses.set('org', 3);
    clock = 2999;
    t.equal(
      await cache.statusOf('org'),
      1,
      'another process changed it: still the cached status within the window',
    );
    t.equal(reads, 1, 'one read');
    clock = 3000;
    t.equal(await cache.statusOf('org'), 3, 'seen once the window ends');
    statuses.set('org', 2);
    cache.forget('org');
    t.equal(await cache.statusOf('org'), 2, 'a change made here is seen at once');
    t.equal(await cache.statusOf('gone'), null, 'an unknown organization');
  },
);

t.test('a failed read is not kept', async (t) => {
  let fail = true;
  const cache = createOrganizationStatusCache({
    load: async () => {
      if (fail) throw new Error('database down');
      return 2;
    },
  });
  await t.rejects(cache.statusOf('org'));
  fail = false;
  t.equal(await cache.statusOf('org'), 2);
});

t.test('Pending and Active are not blocked; Blocked and unknown are', async (t) => {
  t.same([1, 2, 3, null].map(isBlockedStatus), [false, false, true, true]);
});
