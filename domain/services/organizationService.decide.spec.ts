import t from 'tap';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import {
  ALREADY_INSTALLED_MESSAGE,
  evolveOrganizationService,
  initialOrganizationService,
  organizationServiceDecider,
  organizationServiceIdFor,
} from './organizationService.decide.ts';
import type {
  InstallService,
  OrganizationServiceEvent,
  UpdateServiceCredentials,
} from './organizationService.types.ts';

const given = specFor(organizationServiceDecider);
const carrier = 'c0ffee00-1111-4222-8333-444455556666';
const otherCarrier = 'c0ffee00-9999-4222-8333-444455556666';
const user = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const id = organizationServiceIdFor(carrier, 'samsara');
const now = '2026-12-01T10:00:00.000Z';
const later = '2026-12-01T11:00:00.000Z';

const install = (changes: Partial<InstallService['data']> = {}): InstallService => ({
  type: 'InstallService',
  data: {
    organizationServiceId: id,
    organizationId: carrier,
    serviceId: 'samsara',
    clientId: null,
    sealedSecret: 'v1.sealed-a',
    userId: user,
    now,
    ...changes,
  },
});
const update = (
  changes: Partial<UpdateServiceCredentials['data']> = {},
): UpdateServiceCredentials => ({
  type: 'UpdateServiceCredentials',
  data: {
    organizationServiceId: id,
    by: carrier,
    clientId: null,
    sealedSecret: 'v1.sealed-b',
    userId: user,
    now: later,
    ...changes,
  },
});
const installed: OrganizationServiceEvent = {
  type: 'ServiceInstalled',
  data: {
    organizationServiceId: id,
    organizationId: carrier,
    serviceId: 'samsara',
    clientId: null,
    sealedSecret: 'v1.sealed-a',
    installedBy: user,
    installedAt: now,
  },
};

t.test('the id is derived from the organization and the provider', async (t) => {
  t.equal(organizationServiceIdFor(carrier, 'samsara'), id, 'stable');
  t.not(organizationServiceIdFor(carrier, 'motive'), id, 'another provider, another installation');
  t.not(
    organizationServiceIdFor(otherCarrier, 'samsara'),
    id,
    'another organization, another installation',
  );
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

t.test('installing', async (t) => {
  t.test('records the installation with the sealed secret', async () =>
    given([]).when(install()).then([installed]),
  );
  t.test('a second installation of the same provider is refused', async () =>
    given([installed])
      .when(install({ sealedSecret: 'v1.other' }))
      .thenThrows(ConflictError, new RegExp(ALREADY_INSTALLED_MESSAGE.slice(0, 30))),
  );
  t.test('an id that is not the one of the organization and provider is refused', async () =>
    given([])
      .when(install({ organizationServiceId: organizationServiceIdFor(otherCarrier, 'samsara') }))
      .thenThrows(ValidationError),
  );
  t.test('an empty secret is refused', async () =>
    given([])
      .when(install({ sealedSecret: ' ' }))
      .thenThrows(ValidationError, /secret/),
  );
});

t.test('updating the credentials', async (t) => {
  t.test('by the organization', async () =>
    given([installed])
      .when(update({ clientId: 'fleet-1' }))
      .then([
        {
          type: 'ServiceCredentialsUpdated',
          data: {
            organizationServiceId: id,
            clientId: 'fleet-1',
            sealedSecret: 'v1.sealed-b',
            updatedBy: user,
            updatedAt: later,
          },
        },
      ]),
  );
  t.test('by a Superadmin', async () =>
    given([installed])
      .when(update({ by: null }))
      .then([
        {
          type: 'ServiceCredentialsUpdated',
          data: {
            organizationServiceId: id,
            clientId: null,
            sealedSecret: 'v1.sealed-b',
            updatedBy: user,
            updatedAt: later,
          },
        },
      ]),
  );
  t.test("another organization's service is not found", async () =>
    given([installed])
      .when(update({ by: otherCarrier }))
      .thenThrows(NotFoundError, /Service not found/),
  );
  t.test('a service never installed is not found', async () =>
    given([]).when(update()).thenThrows(NotFoundError),
  );
});

t.test('the state follows the latest credentials', async (t) => {
  const state = [
    installed,
    ...organizationServiceDecider.decide(
      update({ clientId: 'x' }),
      evolveOrganizationService(initialOrganizationService(), installed),
    ),
  ].reduce(evolveOrganizationService, initialOrganizationService());
  t.match(state, {
    exists: true,
    organizationId: carrier,
    serviceId: 'samsara',
    clientId: 'x',
    sealedSecret: 'v1.sealed-b',
    installedAt: now,
    updatedAt: later,
  });
});
