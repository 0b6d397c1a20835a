import t from 'tap';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import {
  organizationDecider,
  type CarrierProfileInput,
  type OrganizationCommand,
  type RegisterOrganization,
} from './organization.decide.ts';
import {
  evolveOrganization,
  initialOrganization,
  organizationStream,
  type CarrierProfile,
  type OrganizationContact,
  type OrganizationEvent,
  type OrganizationRegistered,
} from './organization.ts';

const given = specFor(organizationDecider);
const organizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const userId = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const now = '2026-12-01T10:00:00.000Z';
const later = '2026-12-02T09:30:00.000Z';

const contact: OrganizationContact = {
  address: '1 Main St, Chicago, IL',
  person: 'Ann Lee',
  email: 'ops@haul.example',
  phone: '(555) 555-5555',
};
const carrierInput: CarrierProfileInput = {
  mcNumber: 123456,
  dotNumber: 654321,
  eldProvider: null,
  trucks: [{ type: 4, count: 2 }],
  trailers: [{ type: 15, count: 1 }],
  driverTeams: [{ type: 1, count: 2 }],
  documents: { mcAuthority: 'file-mc', certificateOfInsurance: 'file-coi', w9Form: 'file-w9' },
};
const carrierProfile: CarrierProfile = {
  ...carrierInput,
  documents: {
    mcAuthority: 'file-mc',
    certificateOfInsurance: 'file-coi',
    w9Form: 'file-w9',
    noticeOfAssignment: null,
  },
};

const registerCarrier: RegisterOrganization = {
  type: 'RegisterOrganization',
  data: {
    organizationId,
    type: 'Carrier',
    name: 'Haul Co',
    contact,
    carrier: carrierInput,
    shipper: null,
    status: 1,
    registeredBy: userId,
    now,
  },
};
const carrierRegistered: OrganizationRegistered = {
  type: 'OrganizationRegistered',
  data: {
    organizationId,
    type: 'Carrier',
    name: 'Haul Co',
    contact,
    carrier: carrierProfile,
    shipper: null,
    status: 1,
    registeredBy: userId,
    registeredAt: now,
  },
};
const shipperRegistered: OrganizationRegistered = {
  type: 'OrganizationRegistered',
  data: {
    organizationId,
    type: 'Shipper',
    name: 'Ship Co',
    contact,
    carrier: null,
    shipper: { insuredAmount: 1, signatureFileId: null },
    status: 2,
    registeredBy: userId,
    registeredAt: now,
  },
};
const activated: OrganizationEvent = {
  type: 'OrganizationActivated',
  data: { organizationId, activatedAt: later },
};
const blocked: OrganizationEvent = {
  type: 'OrganizationBlocked',
  data: { organizationId, blockedAt: later },
};
const activate: OrganizationCommand = {
  type: 'ActivateOrganization',
  data: { organizationId, now: later },
};
const block: OrganizationCommand = {
  type: 'BlockOrganization',
  data: { organizationId, now: later },
};
const changeCarrier = (changes: Partial<CarrierProfileInput>): OrganizationCommand => ({
  type: 'ChangeCarrierProfile',
  data: { ...carrierInput, documents: {}, ...changes, organizationId, now: later },
});

t.test('stream name', async (t) => {
  t.equal(organizationStream(organizationId), `organization-${organizationId}`);
});

t.test('RegisterOrganization', async (t) => {
  t.test(
    'a self-registered carrier is Pending with its profile; missing documents are null',
    async () => given([]).when(registerCarrier).then([carrierRegistered]),
  );
  t.test('an administrator creates an Active shipper', async () =>
    given([])
      .when({
        type: 'RegisterOrganization',
        data: {
          organizationId,
          type: 'Shipper',
          name: 'Ship Co',
          contact,
          carrier: null,
          shipper: { insuredAmount: 1, signatureFileId: null },
          status: 2,
          registeredBy: userId,
          now,
        },
      })
      .then([shipperRegistered]),
  );
  t.test('a shipper keeps no carrier profile even when one is sent', async () =>
    given([])
      .when({
        type: 'RegisterOrganization',
        data: {
          organizationId,
          type: 'Shipper',
          name: 'Ship Co',
          contact,
          carrier: carrierInput,
          shipper: { insuredAmount: 1, signatureFileId: null },
          status: 2,
          registeredBy: userId,
          now,
        },
      })
      .then([shipperRegistered]),
  );
  t.test('refuses a second registration of the same organization', async () =>
    given([carrierRegistered])
      .when(registerCarrier)
      .thenThrows(IllegalStateError, /already registered \(Pending\)/),
  );
  t.test('refuses a carrier without its profile', async () =>
    given([])
      .when({ ...registerCarrier, data: { ...registerCarrier.data, carrier: null } })
      .thenThrows(ValidationError, /carrier profile/),
  );
  t.test('refuses a shipper without its profile', async () =>
    given([])
      .when({
        ...registerCarrier,
        data: { ...registerCarrier.data, type: 'Shipper', carrier: null },
      })
      .thenThrows(ValidationError, /shipper profile/),
  );
  t.test('refuses an empty company name', async () =>
    given([])
      .when({ ...registerCarrier, data: { ...registerCarrier.data, name: '  ' } })
      .thenThrows(ValidationError, /^Please enter company name!$/),
  );
  t.test('refuses an MC number that is not a positive integer', async () =>
    given([])
      .when({
        ...registerCarrier,
        data: { ...registerCarrier.data, carrier: { ...carrierInput, mcNumber: 0 } },
      })
      .thenThrows(ValidationError, /^Please enter your MC Number$/),
  );
  t.test('refuses a DOT number that is not a positive integer', async () =>
    given([])
      .when({
        ...registerCarrier,
        data: { ...registerCarrier.data, carrier: { ...carrierInput, dotNumber: 1.5 } },
      })
      .thenThrows(ValidationError, /^Please enter your DOT Number$/),
  );
});

t.test('ChangeOrganizationContact', async (t) => {
  // The same phone number written otherwise: no hold (organizationContact.spec.ts holds a new one).
  const newContact = { ...contact, person: 'Bo Diaz', phone: '555.555.5555' };
  const command: OrganizationCommand = {
    type: 'ChangeOrganizationContact',
    data: { organizationId, name: 'Haul Company', contact: newContact, now: later },
  };
  t.test('records the new name and contact', async () =>
    given([carrierRegistered])
      .when(command)
      .then([
        {
          type: 'OrganizationContactChanged',
          data: { organizationId, name: 'Haul Company', contact: newContact, changedAt: later },
        },
      ]),
  );
  t.test('records the two-factor rule when it was sent and changed', async () => {
    const required: OrganizationCommand = {
      type: 'ChangeOrganizationContact',
      data: { ...command.data, twoFactorRequired: true },
    };
    const policy = {
      type: 'OrganizationTwoFactorPolicyChanged' as const,
      data: { organizationId, twoFactorRequired: true, changedAt: later },
    };
    await given([carrierRegistered])
      .when(required)
      .then([
        {
          type: 'OrganizationContactChanged',
          data: { organizationId, name: 'Haul Company', contact: newContact, changedAt: later },
        },
        policy,
      ]);
    await given([carrierRegistered, policy])
      .when(required)
      .then([
        {
          type: 'OrganizationContactChanged',
          data: { organizationId, name: 'Haul Company', contact: newContact, changedAt: later },
        },
      ]);
  });
  t.test('refuses an empty name', async () =>
    given([carrierRegistered])
      .when({ ...command, data: { ...command.data, name: '' } } as OrganizationCommand)
      .thenThrows(ValidationError),
  );
  t.test('refuses an unknown organization', async () =>
    given([])
      .when(command)
      .thenThrows(NotFoundError, /Organization not found/),
  );
});

t.test('ChangeCarrierProfile', async (t) => {
  t.test('replaces fleet and provider, keeps documents not sent', async () =>
    given([carrierRegistered])
      .when(
        changeCarrier({
          eldProvider: 'Samsara',
          trucks: [{ type: 1, count: 3 }],
          documents: { w9Form: 'file-w9-new', noticeOfAssignment: 'file-noa' },
        }),
      )
      .then([
        {
          type: 'CarrierProfileChanged',
          data: {
            organizationId,
            changedAt: later,
            profile: {
              ...carrierProfile,
              eldProvider: 'Samsara',
              trucks: [{ type: 1, count: 3 }],
              documents: {
                mcAuthority: 'file-mc',
                certificateOfInsurance: 'file-coi',
                w9Form: 'file-w9-new',
                noticeOfAssignment: 'file-noa',
              },
            },
          },
        },
      ]),
  );
  t.test('MC and DOT not sent (null) keep their values', async () =>
    given([carrierRegistered])
      .when(changeCarrier({ mcNumber: null, dotNumber: null }))
      .then([
        {
          type: 'CarrierProfileChanged',
          data: { organizationId, changedAt: later, profile: carrierProfile },
        },
      ]),
  );
  t.test('MC and DOT may be set when they were not yet', async () => {
    const unset: OrganizationRegistered = {
      ...carrierRegistered,
      data: {
        ...carrierRegistered.data,
        carrier: { ...carrierProfile, mcNumber: null, dotNumber: null },
      },
    };
    given([unset])
      .when(changeCarrier({}))
      .then([
        {
          type: 'CarrierProfileChanged',
          data: { organizationId, changedAt: later, profile: carrierProfile },
        },
      ]);
  });
  t.test('refuses a changed MC number', async () =>
    given([carrierRegistered])
      .when(changeCarrier({ mcNumber: 999 }))
      .thenThrows(IllegalStateError, /^MC Number cannot be changed once set$/),
  );
  t.test('refuses a changed DOT number', async () =>
    given([carrierRegistered])
      .when(changeCarrier({ dotNumber: 999 }))
      .thenThrows(IllegalStateError, /^DOT Number cannot be changed once set$/),
  );
  t.test('refuses a negative MC number', async () =>
    given([carrierRegistered])
      .when(changeCarrier({ mcNumber: -5 }))
      .thenThrows(ValidationError, /MC Number/),
  );
  t.test('refuses a shipper', async () =>
    given([shipperRegistered])
      .when(changeCarrier({}))
      .thenThrows(IllegalStateError, /is a Shipper/),
  );
  t.test('refuses an unknown organization', async () =>
    given([]).when(changeCarrier({})).thenThrows(NotFoundError),
  );
});

t.test('ChangeShipperProfile', async (t) => {
  const change = (signatureFileId?: string | null): OrganizationCommand => ({
    type: 'ChangeShipperProfile',
    data: {
      organizationId,
      insuredAmount: 2,
      ...(signatureFileId === undefined ? {} : { signatureFileId }),
      now: later,
    },
  });
  const withSignature: OrganizationEvent = {
    type: 'ShipperProfileChanged',
    data: {
      organizationId,
      profile: { insuredAmount: 1, signatureFileId: 'file-sig' },
      changedAt: now,
    },
  };
  t.test('records the insured amount and a new signature', async () =>
    given([shipperRegistered])
      .when(change('file-sig'))
      .then([
        {
          type: 'ShipperProfileChanged',
          data: {
            organizationId,
            profile: { insuredAmount: 2, signatureFileId: 'file-sig' },
            changedAt: later,
          },
        },
      ]),
  );
  t.test('a signature not sent stays as it was', async () =>
    given([shipperRegistered, withSignature])
      .when(change())
      .then([
        {
          type: 'ShipperProfileChanged',
          data: {
            organizationId,
            profile: { insuredAmount: 2, signatureFileId: 'file-sig' },
            changedAt: later,
          },
        },
      ]),
  );
  t.test('refuses a carrier', async () =>
    given([carrierRegistered])
      .when(change())
      .thenThrows(IllegalStateError, /is a Carrier/),
  );
  t.test('refuses an unknown organization', async () =>
    given([]).when(change()).thenThrows(NotFoundError),
  );
});

t.test('ActivateOrganization', async (t) => {
  t.test('a Pending organization becomes Active', async () =>
    given([carrierRegistered]).when(activate).then([activated]),
  );
  t.test('a Blocked organization becomes Active', async () =>
    given([carrierRegistered, blocked]).when(activate).then([activated]),
  );
  t.test('refuses an Active organization', async () =>
    given([carrierRegistered, activated])
      .when(activate)
      .thenThrows(IllegalStateError, /^Organization is already Active$/),
  );
  t.test('refuses an unknown organization', async () =>
    given([]).when(activate).thenThrows(NotFoundError),
  );
});

t.test('BlockOrganization', async (t) => {
  t.test('a Pending organization becomes Blocked', async () =>
    given([carrierRegistered]).when(block).then([blocked]),
  );
  t.test('an Active organization becomes Blocked', async () =>
    given([shipperRegistered]).when(block).then([blocked]),
  );
  t.test('refuses a Blocked organization', async () =>
    given([shipperRegistered, blocked])
      .when(block)
      .thenThrows(IllegalStateError, /^Organization is already Blocked$/),
  );
  t.test('refuses an unknown organization', async () =>
    given([]).when(block).thenThrows(NotFoundError),
  );
});

t.test('LapseOrganizationRegistration', async (t) => {
  const lapse: OrganizationCommand = {
    type: 'LapseOrganizationRegistration',
    data: { organizationId, now: later },
  };
  const lapsed: OrganizationEvent = {
    type: 'OrganizationRegistrationLapsed',
    data: { organizationId, lapsedAt: later },
  };
  t.test('a Pending organization lapses with its first user', async () =>
    given([carrierRegistered]).when(lapse).then([lapsed]),
  );
  t.test('an Active or Blocked one stays', async () => {
    given([shipperRegistered])
      .when(lapse)
      .thenThrows(IllegalStateError, /Pending/);
    given([carrierRegistered, blocked]).when(lapse).thenThrows(IllegalStateError);
  });
  t.test('a lapsed organization is gone, and its id is never registered again', async () => {
    given([carrierRegistered, lapsed]).when(activate).thenThrows(NotFoundError);
    given([carrierRegistered, lapsed])
      .when(registerCarrier)
      .thenThrows(IllegalStateError, /registered once already/);
  });
});

t.test('evolve folds the history into the state', async (t) => {
  const state = [carrierRegistered, activated, blocked].reduce(
    evolveOrganization,
    initialOrganization(),
  );
  t.match(state, {
    registered: true,
    organizationId,
    type: 'Carrier',
    name: 'Haul Co',
    status: 3,
    carrier: carrierProfile,
    shipper: null,
  });
  t.same(
    evolveOrganization(initialOrganization(), activated),
    { registered: false },
    'ignores events before registration',
  );
});

t.test("a carrier's authority: checked first, then recorded only when it changes", async (t) => {
  const authority = (
    status: 'active' | 'revoked',
    insuranceOnFile: boolean,
    checkedAt: string,
  ) => ({
    dotNumber: 654321,
    mcNumber: 123456,
    status,
    insuranceOnFile,
    source: 'import' as const,
    checkedAt,
  });
  const record = (a: ReturnType<typeof authority>): OrganizationCommand => ({
    type: 'RecordCarrierAuthority',
    data: { organizationId, authority: a },
  });
  const checked: OrganizationEvent = {
    type: 'CarrierAuthorityChecked',
    data: { organizationId, ...authority('active', true, now) },
  };
  await t.test('the first check is recorded as it is', async () =>
    given([carrierRegistered])
      .when(record(authority('active', true, now)))
      .then([checked]),
  );
  await t.test('the same answer a day later records nothing', async () =>
    given([carrierRegistered, checked])
      .when(record(authority('active', true, later)))
      .then([]),
  );
  await t.test('a revoked authority without insurance is a change, with what it was', async () =>
    given([carrierRegistered, checked])
      .when(record(authority('revoked', false, later)))
      .then([
        {
          type: 'CarrierAuthorityChanged',
          data: {
            organizationId,
            ...authority('revoked', false, later),
            previous: { status: 'active', insuranceOnFile: true },
          },
        },
      ]),
  );
  await t.test('a shipper has no operating authority', async () =>
    given([shipperRegistered])
      .when(record(authority('active', true, now)))
      .thenThrows(IllegalStateError, /Shipper and has no operating authority/),
  );
  await t.test('an unknown organization is not found', async () =>
    given([])
      .when(record(authority('active', true, now)))
      .thenThrows(NotFoundError, /Organization not found/),
  );
});
