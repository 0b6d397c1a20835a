/**
 * The 24-hour hold on a new contact e-mail or phone: requested (the name applies at once), replaced
 * by a newer request, cancelled by the old contact, applied once due and only once.
 */
import t from 'tap';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { contactNeedsHold, organizationDecider } from './organization.decide.ts';
import {
  evolveOrganization,
  initialOrganization,
  type OrganizationContact,
  type OrganizationContactChangeCancelled,
  type OrganizationContactChangeRequested,
  type OrganizationEvent,
  type OrganizationRegistered,
} from './organization.ts';

const given = specFor(organizationDecider);
const organizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const member = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const firstChange = '7c1d2e3f-0000-4000-8000-000000000001';
const secondChange = '7c1d2e3f-0000-4000-8000-000000000002';
const now = '2026-12-01T10:00:00.000Z';
const dayLater = '2026-12-02T10:00:00.000Z';
const almostDay = '2026-12-02T09:59:59.999Z';

const contact: OrganizationContact = {
  address: '1 Main St, Chicago, IL',
  person: 'Ann Lee',
  email: 'ops@ship.example',
  phone: '(555) 555-5555',
};
const newContact: OrganizationContact = {
  address: '9 Elm St, Dallas, TX',
  person: 'Bo Diaz',
  email: 'billing@elsewhere.example',
  phone: '555-555-0199',
};
const registered: OrganizationRegistered = {
  type: 'OrganizationRegistered',
  data: {
    organizationId,
    type: 'Shipper',
    name: 'Ship Co',
    contact,
    carrier: null,
    shipper: { insuredAmount: 1, signatureFileId: null },
    status: 2,
    registeredBy: member,
    registeredAt: now,
  },
};
const requested = (
  changeId = firstChange,
  at = now,
  pendingUntil = dayLater,
): OrganizationContactChangeRequested => ({
  type: 'OrganizationContactChangeRequested',
  data: {
    organizationId,
    changeId,
    requestedBy: member,
    requestedAt: at,
    pendingUntil,
    contact: newContact,
    previous: contact,
    tokenHash: `hash-of-${changeId}`,
  },
});
const cancelled = (
  changeId: string,
  cancelledBy: string,
  at = now,
): OrganizationContactChangeCancelled => ({
  type: 'OrganizationContactChangeCancelled',
  data: { organizationId, changeId, cancelledAt: at, cancelledBy },
});
const change = (
  next: OrganizationContact,
  extra: { name?: string; hold?: { changeId: string; tokenHash: string }; at?: string } = {},
) => ({
  type: 'ChangeOrganizationContact' as const,
  data: {
    organizationId,
    name: extra.name ?? 'Ship Co',
    contact: next,
    changedBy: member,
    ...(extra.hold ? { hold: extra.hold } : {}),
    now: extra.at ?? now,
  },
});
const apply = (changeId: string, at: string) => ({
  type: 'ApplyOrganizationContactChange' as const,
  data: { organizationId, changeId, now: at },
});

t.test(
  'which changes wait: a new e-mail (case and spaces aside) or phone (its digits)',
  async (t) => {
    t.notOk(contactNeedsHold(contact, { ...contact, address: '2 Main St', person: 'Bo' }));
    t.notOk(contactNeedsHold(contact, { ...contact, email: ' OPS@Ship.example ' }));
    t.notOk(contactNeedsHold(contact, { ...contact, phone: '555.555.5555' }));
    t.ok(contactNeedsHold(contact, { ...contact, email: 'ops@elsewhere.example' }));
    t.ok(contactNeedsHold(contact, { ...contact, phone: '555-555-0100' }));
  },
);

t.test('a new e-mail or phone is held for 24 hours; the name applies at once', async () => {
  await given([registered])
    .when(
      change(newContact, {
        name: 'Ship Co LLC',
        hold: { changeId: firstChange, tokenHash: `hash-of-${firstChange}` },
      }),
    )
    .then([
      {
        type: 'OrganizationContactChanged',
        data: { organizationId, name: 'Ship Co LLC', contact, changedAt: now },
      },
      requested(),
    ]);
  await given([registered])
    .when(
      change(newContact, { hold: { changeId: firstChange, tokenHash: `hash-of-${firstChange}` } }),
    )
    .then([requested()]);
});

t.test('without a confirmed hold a new e-mail or phone is refused', async () =>
  given([registered])
    .when(change(newContact))
    .thenThrows(IllegalStateError, /password/),
);

t.test('a newer request replaces the pending one', async () =>
  given([registered, requested()])
    .when(
      change(newContact, {
        hold: { changeId: secondChange, tokenHash: `hash-of-${secondChange}` },
        at: almostDay,
      }),
    )
    .then([
      cancelled(firstChange, member, almostDay),
      requested(secondChange, almostDay, '2026-12-03T09:59:59.999Z'),
    ]),
);

t.test(
  'a save that keeps e-mail and phone: at once; the pending change gives way only to a new contact',
  async () => {
    const moved = { ...contact, address: '2 Main St' };
    await given([registered, requested()])
      .when(change(moved))
      .then([
        cancelled(firstChange, member),
        {
          type: 'OrganizationContactChanged',
          data: { organizationId, name: 'Ship Co', contact: moved, changedAt: now },
        },
      ]);
    await given([registered, requested()])
      .when(change(contact, { name: 'Renamed' }))
      .then([
        {
          type: 'OrganizationContactChanged',
          data: { organizationId, name: 'Renamed', contact, changedAt: now },
        },
      ]);
  },
);

t.test('applied once due, with its change id, and only once', async () => {
  await given([registered, requested()]).when(apply(firstChange, almostDay)).then([]);
  const applied: OrganizationEvent = {
    type: 'OrganizationContactChanged',
    data: {
      organizationId,
      name: 'Ship Co',
      contact: newContact,
      changedAt: dayLater,
      changeId: firstChange,
    },
  };
  await given([registered, requested()]).when(apply(firstChange, dayLater)).then([applied]);
  await given([registered, requested(), applied]).when(apply(firstChange, dayLater)).then([]);
});

t.test('a cancelled or replaced change never applies', async () => {
  await given([registered, requested(), cancelled(firstChange, 'old-contact')])
    .when(apply(firstChange, dayLater))
    .then([]);
  await given([registered, requested(), cancelled(firstChange, member), requested(secondChange)])
    .when(apply(firstChange, dayLater))
    .then([]);
});

t.test('the old contact cancels the pending change once', async () => {
  const cancel = {
    type: 'CancelOrganizationContactChange' as const,
    data: { organizationId, changeId: firstChange, cancelledBy: 'old-contact', now },
  };
  await given([registered, requested()])
    .when(cancel)
    .then([cancelled(firstChange, 'old-contact')]);
  await given([registered, requested(), cancelled(firstChange, 'old-contact')])
    .when(cancel)
    .thenThrows(NotFoundError);
  await given([registered]).when(cancel).thenThrows(NotFoundError);
});

t.test('evolve: the pending change, until applied or cancelled', async (t) => {
  const pending = [registered, requested()].reduce(evolveOrganization, initialOrganization());
  t.match(pending, {
    contact,
    pendingContactChange: { changeId: firstChange, contact: newContact },
  });
  const gone = evolveOrganization(pending, cancelled(firstChange, 'old-contact'));
  t.match(gone, { contact, pendingContactChange: null });
});

t.test("a shipper's payment terms and a carrier's factor, each on its own side", async () => {
  const save = (extra: object) => ({
    type: 'ChangeOrganizationContact' as const,
    data: { organizationId, name: 'Ship Co', contact, changedBy: member, now, ...extra },
  });
  const unchanged = {
    type: 'OrganizationContactChanged' as const,
    data: { organizationId, name: 'Ship Co', contact, changedAt: now },
  };
  given([registered])
    .when(save({ paymentTermsDays: 45 }))
    .then([
      unchanged,
      {
        type: 'OrganizationPaymentTermsChanged',
        data: { organizationId, paymentTermsDays: 45, changedAt: now },
      },
    ]);
  // 30 is the default: saying it again changes nothing.
  given([registered])
    .when(save({ paymentTermsDays: 30 }))
    .then([unchanged]);
  given([registered])
    .when(save({ paymentTermsDays: 121 }))
    .thenThrows(ValidationError, /120/);
  given([registered])
    .when(save({ factor: { name: 'F', remitTo: 'PO Box 9', noticeFileId: member } }))
    .thenThrows(ValidationError, /Only a carrier/);

  const carrier: OrganizationRegistered = {
    ...registered,
    data: {
      ...registered.data,
      type: 'Carrier',
      shipper: null,
      carrier: registered.data.carrier,
    },
  };
  const factor = { name: 'Fast Factor', remitTo: 'PO Box 9, Austin TX', noticeFileId: member };
  const named: OrganizationEvent = {
    type: 'CarrierFactorChanged',
    data: { organizationId, factor, changedBy: member, changedAt: now },
  };
  given([carrier])
    .when(save({ factor: { ...factor, name: ' Fast Factor ' } }))
    .then([unchanged, named]);
  given([carrier, named]).when(save({ factor })).then([unchanged]);
  given([carrier, named])
    .when(save({ factor: null }))
    .then([
      unchanged,
      {
        type: 'CarrierFactorChanged',
        data: { organizationId, factor: null, changedBy: member, changedAt: now },
      },
    ]);
  given([carrier])
    .when(save({ paymentTermsDays: 10 }))
    .thenThrows(ValidationError, /shipper/);
});
