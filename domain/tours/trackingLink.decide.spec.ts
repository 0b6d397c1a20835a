/** Tracking links on a tour: who may make one, and who may end it (docs/domain.md "Tour"). */
import t from 'tap';
import { ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { tourDecider } from './tour.decide.ts';
import type { TourActor, TourCommand, TourEvent, TourOpened } from './tour.types.ts';

const given = specFor(tourDecider);
const tourId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const shipperOrganizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const carrierOrganizationId = '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12';
const now = '2026-12-02T08:00:00.000Z';
const expiresAt = '2026-12-03T08:00:00.000Z';
const shareId = 'c3000000-0000-4000-8000-000000000001';

const shipper: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000001',
  party: 'shipper',
  organizationId: shipperOrganizationId,
};
const carrier: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000002',
  party: 'carrier',
  organizationId: carrierOrganizationId,
};
const driver: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000004',
  party: 'driver',
  organizationId: carrierOrganizationId,
};
const admin: TourActor = {
  userId: 'a1000000-0000-4000-8000-000000000003',
  party: 'admin',
  organizationId: null,
};
const otherShipper: TourActor = {
  ...shipper,
  organizationId: 'b2000000-0000-4000-8000-000000000001',
};

const tourOpened: TourOpened = {
  type: 'TourOpened',
  data: {
    tourId,
    loadId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    loadGuid: 'L-000042',
    proposalId: '9f8e7d6c-5b4a-4c2d-8e0f-a1b2c3d4e5f6',
    shipperOrganizationId,
    carrierOrganizationId,
    price: 1250,
    eldTruckName: null,
    stops: [],
    openedAt: now,
  },
};
const share = (actor: TourActor): TourCommand => ({
  type: 'ShareTour',
  data: { tourId, actor, shareId, tokenHash: 'ab'.repeat(32), expiresAt, now },
});
const revoke = (actor: TourActor): TourCommand => ({
  type: 'RevokeTrackingLink',
  data: { tourId, actor, shareId, now },
});
const shared = (actor: TourActor): TourEvent => ({
  type: 'TourShared',
  data: {
    tourId,
    shareId,
    tokenHash: 'ab'.repeat(32),
    organizationId: actor.organizationId!,
    sharedBy: actor.userId!,
    expiresAt,
    sharedAt: now,
  },
});
const revoked: TourEvent = {
  type: 'TourShareRevoked',
  data: { tourId, shareId, revokedBy: shipper.userId!, revokedAt: now },
};

t.test('making a link', async (t) => {
  t.test('the shipper and the carrier may', async () => {
    given([tourOpened])
      .when(share(shipper))
      .then([shared(shipper)]);
    given([tourOpened])
      .when(share(carrier))
      .then([shared(carrier)]);
  });
  t.test('a driver and a Superadmin may not', async () => {
    given([tourOpened]).when(share(driver)).thenThrows(NotFoundError); // not assigned: the tour does not exist for it
    given([tourOpened]).when(share(admin)).thenThrows(ForbiddenError);
  });
  t.test("another organization's tour does not exist for it", async () =>
    given([tourOpened]).when(share(otherShipper)).thenThrows(NotFoundError),
  );
});

t.test('ending a link', async (t) => {
  t.test('its own side ends it, once', async () => {
    given([tourOpened, shared(shipper)])
      .when(revoke(shipper))
      .then([revoked]);
    given([tourOpened, shared(shipper), revoked])
      .when(revoke(shipper))
      .thenThrows(NotFoundError, /^Link not found$/);
  });
  t.test("the other side's link is not the caller's", async () =>
    given([tourOpened, shared(shipper)])
      .when(revoke(carrier))
      .thenThrows(NotFoundError),
  );
  t.test('an unknown link', async () =>
    given([tourOpened]).when(revoke(shipper)).thenThrows(NotFoundError),
  );
});
