import t from 'tap';
import { ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { leadDecider, leadIdFor, normaliseContact } from './lead.decide.ts';
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
  t.test('refuses an empty text, saying what to enter', async () =>
    given([])
      .when(register(' \n\t ', leadIdFor('')))
      .thenThrows(
        ValidationError,
        /^Please enter your e-mail address, or another way to reach you$/,
      ),
  );
  t.test('takes what the visitor typed, with no format check, as one line', async () =>
    given([])
      .when(register('  Call  Rosa\r\n(555) 555-0142 '))
      .then([
        {
          type: 'InterestRegistered',
          data: {
            leadId: leadIdFor('call rosa (555) 555-0142'),
            email: 'call rosa (555) 555-0142',
            registeredAt: now,
          },
        },
      ]),
  );
  t.test('takes 200 characters, refuses 201', async () => {
    const longest = `${'a'.repeat(188)}@example.com`;
    given([])
      .when(register(longest))
      .then([registered(longest)]);
    given([])
      .when(register(`a${longest}`))
      .thenThrows(ValidationError, /^Please enter at most 200 characters/);
  });
  t.test('refuses a lead id of another address', async () =>
    given([])
      .when(register(email, leadIdFor('someone@else.example')))
      .thenThrows(ValidationError, /does not belong/),
  );
  t.test('names the field', async (t) => {
    t.throws(() => leadDecider.decide(register(''), leadDecider.initialState()), {
      errors: [{ path: 'email' }],
    });
  });
});

t.test('a lead id is stable per address and a UUID', async (t) => {
  t.equal(leadId, leadIdFor(' DISPATCH@prairie-haul.example'));
  t.not(leadId, leadIdFor('other@prairie-haul.example'));
  t.match(leadId, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.equal(leadStream(leadId), `lead-${leadId}`);
  t.equal(normaliseContact('  A@B.Example '), 'a@b.example');
  t.equal(
    leadIdFor('dispatch@prairie-haul.example'),
    'daa9dcb6-1bb0-51e7-83ac-bee765a3c3d8',
    'an address keeps the lead id it had before any text was taken',
  );
});

t.test('the state remembers the first registration', async (t) => {
  const state = [registered(email, '2026-11-30T10:00:00.000Z'), registered(email, now)].reduce(
    leadDecider.evolve,
    leadDecider.initialState(),
  );
  t.same(state, { exists: true, leadId, email, registeredAt: '2026-11-30T10:00:00.000Z' });
});
