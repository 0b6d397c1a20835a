/** Dock links and the dock's tries (docs/domain.md "Release code", "Dock link"): who makes a link, and when a pickup is released or held. */
import t from 'tap';
import { ForbiddenError, NotFoundError, TooManyRequestsError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { DOCK_LINK_MAX_TRIES } from './dockRelease.decide.ts';
import { tourDecider } from './tour.decide.ts';
import type { TourActor, TourCommand, TourEvent, TourOpened } from './tour.types.ts';

const given = specFor(tourDecider);
const tourId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const shipperOrganizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const carrierOrganizationId = '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12';
const driverId = 'a1000000-0000-4000-8000-000000000004';
const now = '2026-12-02T08:00:00.000Z';
const expiresAt = '2026-12-02T20:00:00.000Z';
const linkId = 'd3000000-0000-4000-8000-000000000001';

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
const assigned: TourEvent = {
  type: 'TourAssigned',
  data: {
    tourId,
    assigneeId: driverId,
    assigneeName: 'Dana Brooks',
    previousAssigneeId: null,
    assignedBy: carrier.userId,
    assignedAt: now,
    tractorNumber: 'T-481',
    trailerNumber: 'TR-22',
    sealedReleaseSecret: 'v1.sealed',
  },
};
const create = (actor: TourActor): TourCommand => ({
  type: 'CreateDockLink',
  data: { tourId, actor, linkId, tokenHash: 'ab'.repeat(32), expiresAt, now },
});
const created: TourEvent = {
  type: 'DockLinkCreated',
  data: {
    tourId,
    linkId,
    tokenHash: 'ab'.repeat(32),
    organizationId: shipperOrganizationId,
    createdBy: shipper.userId!,
    expiresAt,
    createdAt: now,
  },
};
const revoked: TourEvent = {
  type: 'DockLinkRevoked',
  data: { tourId, linkId, revokedBy: shipper.userId!, revokedAt: now },
};
const attempt = (
  entered: { codeVerified: boolean; tractor?: string; miles?: number },
  at = now,
): TourCommand => ({
  type: 'RecordDockRelease',
  data: {
    tourId,
    linkId,
    codeVerified: entered.codeVerified,
    tractorNumberEntered: entered.tractor ?? null,
    eldDistanceMiles: entered.miles ?? null,
    eldPositionAt: entered.miles === undefined ? null : now,
    now: at,
  },
});
const evidence = (entered: { codeVerified: boolean; tractor?: string; miles?: number }, n = 1) => ({
  tourId,
  linkId,
  driverId,
  codeVerified: entered.codeVerified,
  tractorNumberEntered: entered.tractor ?? null,
  tractorNumberAssigned: 'T-481',
  eldDistanceMiles: entered.miles ?? null,
  eldPositionAt: entered.miles === undefined ? null : now,
  enteredBy: 'dock_link' as const,
  attempt: n,
  at: now,
});

t.test('making and ending a dock link', async (t) => {
  t.test("the tour's shipper makes one; the carrier may not", async () => {
    given([tourOpened, assigned]).when(create(shipper)).then([created]);
    given([tourOpened, assigned]).when(create(carrier)).thenThrows(ForbiddenError);
  });
  t.test('the shipper ends it, once', async () => {
    given([tourOpened, created])
      .when({
        type: 'RevokeDockLink',
        data: { tourId, actor: shipper, linkId, now },
      })
      .then([revoked]);
    given([tourOpened, created, revoked])
      .when({ type: 'RevokeDockLink', data: { tourId, actor: shipper, linkId, now } })
      .thenThrows(NotFoundError);
  });
});

t.test("the dock's tries", async (t) => {
  t.test("the assigned driver's code, the assigned tractor, the truck near: released", async () =>
    given([tourOpened, assigned, created])
      .when(attempt({ codeVerified: true, tractor: 't 481', miles: 0.3 }))
      .then([
        {
          type: 'PickupReleased',
          data: evidence({ codeVerified: true, tractor: 't 481', miles: 0.3 }),
        },
      ]),
  );
  t.test('every reason at once is held with every reason', async () =>
    given([tourOpened, assigned, created])
      .when(attempt({ codeVerified: false, tractor: 'X-9', miles: 25 }))
      .then([
        {
          type: 'PickupHeld',
          data: {
            ...evidence({ codeVerified: false, tractor: 'X-9', miles: 25 }),
            reasons: ['wrong_code', 'tractor_mismatch', 'truck_far_away'],
          },
        },
      ]),
  );
  t.test('no ELD position and no tractor typed: the code alone decides', async () =>
    given([tourOpened, assigned, created])
      .when(attempt({ codeVerified: true }))
      .then([{ type: 'PickupReleased', data: evidence({ codeVerified: true }) }]),
  );
  t.test('a link takes 10 tries, then refuses', async () => {
    const tries: TourEvent[] = Array.from({ length: DOCK_LINK_MAX_TRIES }, (_, index) => ({
      type: 'PickupHeld',
      data: { ...evidence({ codeVerified: false }, index + 1), reasons: ['wrong_code'] },
    }));
    given([tourOpened, assigned, created, ...tries])
      .when(attempt({ codeVerified: true }))
      .thenThrows(TooManyRequestsError);
  });
  t.test('a revoked or expired link takes none', async () => {
    given([tourOpened, assigned, created, revoked])
      .when(attempt({ codeVerified: true }))
      .thenThrows(NotFoundError);
    given([tourOpened, assigned, created])
      .when(attempt({ codeVerified: true }, expiresAt))
      .thenThrows(NotFoundError);
  });
});
