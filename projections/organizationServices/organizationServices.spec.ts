import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import {
  credentialsUpdated,
  organizationActivated,
  serviceInstalled,
} from '../testing/accounts.ts';
import { carrier } from '../testing/trade.ts';
import { organizationServicesProjection } from './organizationServices.projection.ts';

const spec = readModelSpec(organizationServicesProjection, openTestDatabase);
t.teardown(spec.close);

const samsara = 'acac1111-2222-4333-8444-555566667777';
const motive = 'acac1111-2222-4333-8444-555566667778';
const installed = '2026-11-30T10:00:00.000Z';
const later = '2026-12-01T10:00:00.000Z';

t.test('an installed ELD service, its secret only sealed', async () => {
  await spec
    .given(
      serviceInstalled(samsara, { at: installed, serviceId: 'samsara', clientId: null }),
      serviceInstalled(motive, { at: installed, serviceId: 'motive', clientId: 'client-1' }),
    )
    .expectRows('organization_services_view', [
      {
        id: samsara,
        organization_id: carrier,
        service_id: 'samsara',
        client_id: null,
        sealed_secret: 'sealed:first',
        installed_at: installed,
        updated_at: installed,
      },
      {
        id: motive,
        organization_id: carrier,
        service_id: 'motive',
        client_id: 'client-1',
        sealed_secret: 'sealed:first',
        installed_at: installed,
        updated_at: installed,
      },
    ]);
});

t.test('new credentials replace the old; installed again, the first stays', async () => {
  await spec
    .given(
      serviceInstalled(motive, { at: installed, serviceId: 'motive', clientId: 'client-1' }),
      serviceInstalled(motive, { at: later, serviceId: 'other', clientId: 'client-9' }),
      credentialsUpdated(motive, {
        at: later,
        clientId: 'client-2',
        sealedSecret: 'sealed:second',
      }),
    )
    .expectRows('organization_services_view', [
      {
        service_id: 'motive',
        client_id: 'client-2',
        sealed_secret: 'sealed:second',
        installed_at: installed,
        updated_at: later,
      },
    ]);
});

t.test(
  'credentials of a service never installed change nothing; nor does an organization let in',
  async () => {
    await spec
      .given(
        credentialsUpdated(samsara, { at: later, clientId: null, sealedSecret: 'sealed:x' }),
        organizationActivated(carrier, { at: later }),
      )
      .expectRows('organization_services_view', []);
  },
);
