import t from 'tap';
import {
  tourStream,
  type DockLinkCreated,
  type DockLinkRevoked,
} from '../../domain/tours/tour.types.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { tourOpened } from '../testing/tours.ts';
import { on, shipper, shipperUser } from '../testing/trade.ts';
import { dockLinksProjection } from './dockLinks.projection.ts';

const spec = readModelSpec(dockLinksProjection, openTestDatabase);
t.teardown(spec.close);

const tour = 'bbbb1111-2222-4333-8444-555566667777';
const link = 'dddd1111-2222-4333-8444-555566667777';
const otherLink = 'dddd1111-2222-4333-8444-555566667778';
const created = '2026-12-05T09:00:00.000Z';
const expires = '2026-12-05T21:00:00.000Z';
const revoked = '2026-12-05T10:00:00.000Z';

const dockLinkCreated = (linkId: string) =>
  on<DockLinkCreated>(tourStream(tour), {
    type: 'DockLinkCreated',
    data: {
      tourId: tour,
      linkId,
      tokenHash: `hash-of-${linkId}`,
      organizationId: shipper,
      createdBy: shipperUser,
      expiresAt: expires,
      createdAt: created,
    },
  });
const dockLinkRevoked = (linkId: string, at: string) =>
  on<DockLinkRevoked>(tourStream(tour), {
    type: 'DockLinkRevoked',
    data: { tourId: tour, linkId, revokedBy: shipperUser, revokedAt: at },
  });

t.test('a dock link, by the hash of its token, until it expires', async () => {
  await spec.given(dockLinkCreated(link)).expectRows('dock_links_view', [
    {
      id: link,
      tour_id: tour,
      token_hash: `hash-of-${link}`,
      organization_id: shipper,
      created_by: shipperUser,
      expires_at: expires,
      created_at: created,
      revoked_at: null,
    },
  ]);
});

t.test(
  'a revoked link shows when it was revoked, the first time only; the others stay open',
  async () => {
    await spec
      .given(
        dockLinkCreated(link),
        dockLinkCreated(otherLink),
        dockLinkRevoked(link, revoked),
        dockLinkRevoked(link, expires),
      )
      .expectRows('dock_links_view', [
        { id: link, revoked_at: revoked },
        { id: otherLink, revoked_at: null },
      ]);
  },
);

t.test('a tour opened makes no dock link', async () => {
  await spec
    .given(tourOpened(tour, { at: created, loadId: link, proposalId: otherLink, price: 2400 }))
    .expectRows('dock_links_view', []);
});
