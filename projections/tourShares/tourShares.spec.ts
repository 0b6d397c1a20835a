import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { shareRevoked, tourOpened, tourShared } from '../testing/tours.ts';
import { shipper } from '../testing/trade.ts';
import { tourSharesProjection } from './tourShares.projection.ts';

const spec = readModelSpec(tourSharesProjection, openTestDatabase);
t.teardown(spec.close);

const tour = 'bbbb1111-2222-4333-8444-555566667777';
const link = 'adad1111-2222-4333-8444-555566667777';
const otherLink = 'adad1111-2222-4333-8444-555566667778';
const shared = '2026-12-05T09:00:00.000Z';
const expires = '2026-12-08T09:00:00.000Z';
const revoked = '2026-12-06T09:00:00.000Z';

t.test(
  'a tracking link shared with the receiver, by the hash of its token, until it expires',
  async () => {
    await spec
      .given(tourShared(tour, { at: shared, shareId: link, expiresAt: expires }))
      .expectRows('tour_shares_view', [
        {
          id: link,
          tour_id: tour,
          token_hash: `hash-of-${link}`,
          organization_id: shipper,
          expires_at: expires,
          created_at: shared,
          revoked_at: null,
        },
      ]);
  },
);

t.test(
  'a revoked link shows when it was revoked, the first time only; the others stay open',
  async () => {
    await spec
      .given(
        tourShared(tour, { at: shared, shareId: link, expiresAt: expires }),
        tourShared(tour, { at: shared, shareId: otherLink, expiresAt: expires }),
        shareRevoked(tour, { at: revoked, shareId: link }),
        shareRevoked(tour, { at: expires, shareId: link }),
      )
      .expectRows('tour_shares_view', [
        { id: link, revoked_at: revoked },
        { id: otherLink, revoked_at: null },
      ]);
  },
);

t.test('a tour opened shares nothing', async () => {
  await spec
    .given(
      tourOpened(tour, {
        at: shared,
        loadId: link,
        proposalId: otherLink,
        price: 2400,
      }),
    )
    .expectRows('tour_shares_view', []);
});
