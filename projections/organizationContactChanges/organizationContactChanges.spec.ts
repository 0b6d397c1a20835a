import t from 'tap';
import {
  organizationStream,
  type OrganizationContact,
  type OrganizationContactChanged,
  type OrganizationContactChangeCancelled,
  type OrganizationContactChangeRequested,
} from '../../domain/organizations/organization.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { on, shipper, shipperUser } from '../testing/trade.ts';
import { organizationContactChangesProjection } from './organizationContactChanges.projection.ts';

const spec = readModelSpec(organizationContactChangesProjection, openTestDatabase);
t.teardown(spec.close);

const first = 'cccc1111-2222-4333-8444-555566667771';
const second = 'cccc1111-2222-4333-8444-555566667772';
const at = '2026-12-05T09:00:00.000Z';
const due = '2026-12-06T09:00:00.000Z';
const later = '2026-12-05T10:00:00.000Z';
const previous: OrganizationContact = {
  address: '1 Main St',
  person: 'Ann Lee',
  email: 'ops@ship.example',
  phone: '555-555-0101',
};
const contact: OrganizationContact = { ...previous, email: 'new@elsewhere.example' };

const requested = (changeId: string) =>
  on<OrganizationContactChangeRequested>(organizationStream(shipper), {
    type: 'OrganizationContactChangeRequested',
    data: {
      organizationId: shipper,
      changeId,
      requestedBy: shipperUser,
      requestedAt: at,
      pendingUntil: due,
      contact,
      previous,
      tokenHash: `hash-of-${changeId}`,
    },
  });
const cancelled = (changeId: string, cancelledBy: string) =>
  on<OrganizationContactChangeCancelled>(organizationStream(shipper), {
    type: 'OrganizationContactChangeCancelled',
    data: { organizationId: shipper, changeId, cancelledAt: later, cancelledBy },
  });
const changed = (changeId?: string) =>
  on<OrganizationContactChanged>(organizationStream(shipper), {
    type: 'OrganizationContactChanged',
    data: {
      organizationId: shipper,
      name: 'Ship Co',
      contact,
      changedAt: due,
      ...(changeId ? { changeId } : {}),
    },
  });

t.test('a requested change waits, found by the hash of its link', async () => {
  await spec.given(requested(first)).expectRows('organization_contact_changes_view', [
    {
      id: first,
      organization_id: shipper,
      token_hash: `hash-of-${first}`,
      requested_by: shipperUser,
      requested_at: at,
      pending_until: due,
      contact,
      previous,
      status: 'pending',
      cancelled_at: null,
      cancelled_by: null,
      applied_at: null,
    },
  ]);
});

t.test('cancelled by the old contact, or replaced by a member: never pending again', async () => {
  await spec
    .given(
      requested(first),
      cancelled(first, shipperUser),
      requested(second),
      cancelled(second, 'old-contact'),
      changed(second),
    )
    .expectRows('organization_contact_changes_view', [
      { id: first, status: 'cancelled', cancelled_by: shipperUser, applied_at: null },
      { id: second, status: 'cancelled', cancelled_by: 'old-contact', applied_at: null },
    ]);
});

t.test('applied by its own change; a plain contact change applies nothing', async () => {
  await spec
    .given(requested(first), changed(), changed(first), changed(first))
    .expectRows('organization_contact_changes_view', [
      { id: first, status: 'applied', applied_at: due, cancelled_at: null },
    ]);
});
