import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { interestRegistered, userRegistered } from '../testing/accounts.ts';
import { leadsProjection } from './leads.projection.ts';

const spec = readModelSpec(leadsProjection, openTestDatabase);
t.teardown(spec.close);

const lead = 'f0f0f0f0-1111-4222-8333-444455556666';
const otherLead = 'f0f0f0f0-1111-4222-8333-444455556667';

t.test('each address that registers interest is one lead, with when it did', async () => {
  await spec
    .given(
      interestRegistered(lead, { at: '2026-11-30T10:00:00.000Z', email: 'ana@example.com' }),
      interestRegistered(otherLead, { at: '2026-12-01T10:00:00.000Z', email: 'bo@example.com' }),
    )
    .expectRows('leads_view', [
      { id: lead, email: 'ana@example.com', registered_at: '2026-11-30T10:00:00.000Z' },
      { id: otherLead, email: 'bo@example.com', registered_at: '2026-12-01T10:00:00.000Z' },
    ]);
});

t.test('the same lead registered again keeps its first date', async () => {
  await spec
    .given(
      interestRegistered(lead, { at: '2026-11-30T10:00:00.000Z', email: 'ana@example.com' }),
      interestRegistered(lead, { at: '2026-12-05T10:00:00.000Z', email: 'ana@example.com' }),
    )
    .expectRows('leads_view', [{ id: lead, registered_at: '2026-11-30T10:00:00.000Z' }]);
});

t.test('a user signing up is no lead', async () => {
  await spec
    .given(userRegistered(lead, { at: '2026-11-30T10:00:00.000Z' }))
    .expectRows('leads_view', []);
});
