import t from 'tap';
import { ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { leadDecider, leadIdFor, normaliseEmail } from './lead.decide.ts';
import { leadStream, type InterestRegistered, type RegisterInterest } from './lead.types.ts';

const given = specFor(leadDecider);
const now = '2026-12-02T08:00:00.000Z';
const email = 'dispatch@prairie-haul.example';
const leadId = leadIdFor(email);

const register = (address: string, id = leadIdFor(address)): RegisterInterest => ({
  type: 'RegisterInterest',
  data: { leadId: id, email: address, now },
});
const registered = (address = email, at = now): InterestRegistered => ({
  type: 'InterestRegistered',
  data: { leadId: leadIdFor(address), email: address, registeredAt: at },
});

t.test('RegisterInterest', async (t) => {
  t.test('registers a new address', async () =>
    given([]).when(register(email)).then([registered()]),
  );
  t.test('keeps the address trimmed and in lower case', async () =>
    given([]).when(register('  Dispatch@Prairie-Haul.EXAMPLE ')).then([registered()]),
  );
  t.test('the same address again changes nothing', async () =>
    given([registered(email, '2026-11-30T10:00:00.000Z')])
      .when(register('DISPATCH@prairie-haul.example'))
      .then([]),
  );
  t.test('refuses an empty address', async () =>
    given([])
      .when(register('   ', leadIdFor('')))
      .thenThrows(ValidationError, /^Please enter Email Address!$/),
  );
  t.test('refuses an address that is not one', async () =>
    given([])
      .when(register('not an address'))
      .thenThrows(ValidationError, /^The Email you entered is not a valid format!$/),
  );
  t.test('refuses an address longer than 254 characters', async () =>
    given([])
      .when(register(`${'a'.repeat(250)}@example.com`))
      .thenThrows(ValidationError, /not a valid format/),
  );
  t.test('refuses a lead id of another address', async () =>
    given([])
      .when(register(email, leadIdFor('someone@else.example')))
      .thenThrows(ValidationError, /does not belong/),
  );
  t.test('names the field', async (t) => {
    t.throws(() => leadDecider.decide(register('nope'), leadDecider.initialState()), {
      errors: [{ path: 'email' }],
    });
  });
});

t.test('a lead id is stable per address and a UUID', async (t) => {
  t.equal(leadId, leadIdFor(' DISPATCH@prairie-haul.example'));
  t.not(leadId, leadIdFor('other@prairie-haul.example'));
  t.match(leadId, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.equal(leadStream(leadId), `lead-${leadId}`);
  t.equal(normaliseEmail('  A@B.Example '), 'a@b.example');
});

t.test('the state remembers the first registration', async (t) => {
  const state = [registered(email, '2026-11-30T10:00:00.000Z'), registered(email, now)].reduce(
    leadDecider.evolve,
    leadDecider.initialState(),
  );
  t.same(state, { exists: true, leadId, email, registeredAt: '2026-11-30T10:00:00.000Z' });
});
