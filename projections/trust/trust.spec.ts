import t from 'tap';
import {
  organizationStream,
  type CarrierAuthorityChanged,
  type CarrierAuthorityChecked,
  type OrganizationContactChangeRequested,
} from '../../domain/organizations/organization.ts';
import {
  tourStream,
  type PickupHeld,
  type PickupReleased,
  type TourAssigned,
} from '../../domain/tours/tour.types.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { driverAssigned } from '../testing/tours.ts';
import { carrier, carrierUser, driver, on } from '../testing/trade.ts';
import { trustProjection } from './trust.projection.ts';

const spec = readModelSpec(trustProjection, openTestDatabase);
t.teardown(spec.close);

const tour = 'bbbb1111-2222-4333-8444-555566667777';
const link = 'dddd1111-2222-4333-8444-555566667777';
const checked = '2026-12-05T09:00:00.000Z';
const changed = '2026-12-06T09:00:00.000Z';
const dockAt = '2026-12-07T07:00:00.000Z';
const laterAt = '2026-12-07T07:05:00.000Z';

const authorityChecked = on<CarrierAuthorityChecked>(organizationStream(carrier), {
  type: 'CarrierAuthorityChecked',
  data: {
    organizationId: carrier,
    dotNumber: 2345671,
    mcNumber: 712345,
    status: 'active',
    insuranceOnFile: true,
    source: 'import',
    checkedAt: checked,
  },
});
const authorityRevoked = on<CarrierAuthorityChanged>(organizationStream(carrier), {
  type: 'CarrierAuthorityChanged',
  data: {
    organizationId: carrier,
    dotNumber: 2345671,
    mcNumber: 712345,
    status: 'revoked',
    insuranceOnFile: false,
    source: 'import',
    checkedAt: changed,
    previous: { status: 'active', insuranceOnFile: true },
  },
});
const assignedWith = (tractorNumber: string | null | undefined) => {
  const event = driverAssigned(tour, { at: checked });
  return on<TourAssigned>(tourStream(tour), {
    type: 'TourAssigned',
    data: {
      ...event.data,
      ...(tractorNumber === undefined ? {} : { tractorNumber, trailerNumber: null }),
    },
  });
};
const dock = (type: 'PickupReleased' | 'PickupHeld', at: string) => {
  const evidence = {
    tourId: tour,
    linkId: link,
    driverId: driver,
    codeVerified: type === 'PickupReleased',
    tractorNumberEntered: null,
    tractorNumberAssigned: 'T-481',
    eldDistanceMiles: null,
    eldPositionAt: null,
    enteredBy: 'dock_link' as const,
    attempt: 1,
    at,
  };
  return type === 'PickupReleased'
    ? on<PickupReleased>(tourStream(tour), { type, data: evidence })
    : on<PickupHeld>(tourStream(tour), {
        type,
        data: { ...evidence, reasons: ['wrong_code'] },
      });
};
// The guarded contact change's request, as `PUT users/organization` records it.
const contactChangeRequested = (changeId: string, requestedAt: string) =>
  on<OrganizationContactChangeRequested>(organizationStream(carrier), {
    type: 'OrganizationContactChangeRequested',
    data: {
      organizationId: carrier,
      changeId,
      requestedBy: carrierUser,
      requestedAt,
      pendingUntil: new Date(Date.parse(requestedAt) + 24 * 3600_000).toISOString(),
      contact: {
        address: '1 Dock St',
        person: 'New Office',
        email: 'new@example.com',
        phone: '555',
      },
      previous: { address: '1 Dock St', person: 'Office', email: 'old@example.com', phone: '555' },
      tokenHash: 'a'.repeat(64),
    },
  });

t.test("a carrier's authority as last recorded", async () => {
  await spec.given(authorityChecked).expectRows('trust_carriers_view', [
    {
      organization_id: carrier,
      authority_status: 'active',
      insurance_on_file: true,
      checked_at: checked,
    },
  ]);
  await spec.given(authorityChecked, authorityRevoked).expectRows('trust_carriers_view', [
    {
      organization_id: carrier,
      authority_status: 'revoked',
      insurance_on_file: false,
      checked_at: changed,
    },
  ]);
});

t.test("a tour's tractor as its last assignment named it; none from older callers", async () => {
  await spec
    .given(assignedWith('T-481'))
    .expectRows('trust_tours_view', [{ tour_id: tour, tractor_number: 'T-481', dock_state: null }]);
  await spec
    .given(assignedWith('T-481'), assignedWith(undefined))
    .expectRows('trust_tours_view', [{ tour_id: tour, tractor_number: null }]);
  await spec
    .given(assignedWith('  '))
    .expectRows('trust_tours_view', [{ tour_id: tour, tractor_number: null }]);
});

t.test('the last dock outcome: held, then released on a later try', async () => {
  await spec
    .given(assignedWith('T-481'), dock('PickupHeld', dockAt))
    .expectRows('trust_tours_view', [
      { tour_id: tour, tractor_number: 'T-481', dock_state: 'held', dock_at: dockAt },
    ]);
  await spec
    .given(assignedWith('T-481'), dock('PickupHeld', dockAt), dock('PickupReleased', laterAt))
    .expectRows('trust_tours_view', [
      { tour_id: tour, tractor_number: 'T-481', dock_state: 'released', dock_at: laterAt },
    ]);
});

t.test('each contact change request, once, by who asked', async () => {
  await spec
    .given(
      contactChangeRequested('change-1', checked),
      contactChangeRequested('change-1', checked),
      contactChangeRequested('change-2', changed),
    )
    .expectRows('trust_contact_changes_view', [
      {
        change_id: 'change-1',
        organization_id: carrier,
        requested_by: carrierUser,
        requested_at: checked,
      },
      {
        change_id: 'change-2',
        organization_id: carrier,
        requested_by: carrierUser,
        requested_at: changed,
      },
    ]);
});
