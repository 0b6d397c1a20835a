import t from 'tap';
import { GenericStatus } from '../../domain/catalog.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import {
  carrierProfile,
  carrierProfileChanged,
  contactChanged,
  organizationActivated,
  organizationBlocked,
  organizationRegistered,
  shipperProfileChanged,
  userRegistered,
} from '../testing/accounts.ts';
import { organizationsProjection } from './organizations.projection.ts';

const spec = readModelSpec(organizationsProjection, openTestDatabase);
t.teardown(spec.close);

const fastFreight = 'c0ffee00-1111-4222-8333-444455556666';
const acme = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const signedUp = '2026-11-30T10:00:00.000Z';
const later = '2026-12-01T10:00:00.000Z';
const latest = '2026-12-02T10:00:00.000Z';

t.test('a carrier signing up is Pending with its fleet; a shipper with its insurance', async () => {
  const given = spec.given(
    organizationRegistered(fastFreight, { at: signedUp }),
    organizationRegistered(acme, { at: signedUp, shipper: true, name: 'Acme' }),
  );
  await given.expectRows('organizations_view', [
    {
      id: fastFreight,
      type: 'Carrier',
      name: 'Fast Freight',
      status: GenericStatus.Pending,
      mc_number: '123456',
      trucks: [{ type: 1, count: 3 }],
      insured_amount: null,
      created_at: signedUp,
    },
    {
      id: acme,
      type: 'Shipper',
      name: 'Acme',
      status: GenericStatus.Pending,
      mc_number: null,
      trucks: [],
      insured_amount: 1,
      created_at: signedUp,
    },
  ]);
});

t.test('let in, then blocked; registered twice, the first stays', async () => {
  await spec
    .given(
      organizationRegistered(fastFreight, { at: signedUp }),
      organizationRegistered(fastFreight, { at: later, name: 'Other name' }),
      organizationActivated(fastFreight, { at: later }),
    )
    .expectRows('organizations_view', [
      { name: 'Fast Freight', status: GenericStatus.Active, updated_at: later },
    ]);
  await spec
    .given(
      organizationRegistered(fastFreight, { at: signedUp, byAdministrator: true }),
      organizationBlocked(fastFreight, { at: latest }),
    )
    .expectRows('organizations_view', [{ status: GenericStatus.Blocked, updated_at: latest }]);
});

t.test('a new name and contact, a new fleet, a shipper’s signature', async () => {
  const given = spec.given(
    organizationRegistered(fastFreight, { at: signedUp }),
    organizationRegistered(acme, { at: signedUp, shipper: true, name: 'Acme' }),
    contactChanged(fastFreight, { at: later, name: 'Faster Freight', email: 'ops@example.com' }),
    carrierProfileChanged(fastFreight, {
      at: latest,
      profile: carrierProfile({ eldProvider: 'samsara', trucks: [{ type: 2, count: 5 }] }),
    }),
    shipperProfileChanged(acme, {
      at: later,
      signatureFileId: 'ffff1111-2222-4333-8444-555566667777',
    }),
  );
  await given.expectRows('organizations_view', [
    {
      name: 'Faster Freight',
      email: 'ops@example.com',
      eld_provider: 'samsara',
      trucks: [{ type: 2, count: 5 }],
      insured_amount: null,
      signature_file_id: null,
      updated_at: latest,
    },
    {
      name: 'Acme',
      email: 'office@example.com',
      eld_provider: null,
      trucks: [],
      insured_amount: 2,
      signature_file_id: 'ffff1111-2222-4333-8444-555566667777',
      updated_at: later,
    },
  ]);
});

t.test('a user signing up adds no organization', async () => {
  await spec
    .given(userRegistered(fastFreight, { at: signedUp }))
    .expectRows('organizations_view', []);
});
