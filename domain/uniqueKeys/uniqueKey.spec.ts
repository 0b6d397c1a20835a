import t from 'tap';
import { ConflictError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import {
  emailKeyDecider,
  emailKeyStream,
  evolveUniqueKey,
  initialUniqueKey,
  normaliseEmail,
  normaliseUsername,
  uniqueKeyFor,
  usernameKeyDecider,
  usernameKeyStream,
  type UniqueKeyCommand,
  type UniqueKeyEvent,
} from './uniqueKey.ts';

const alice = '11111111-1111-4111-8111-111111111111';
const bob = '22222222-2222-4222-8222-222222222222';
const reserve = (ownerId: string): UniqueKeyCommand => ({ type: 'Reserve', data: { ownerId } });
const release = (ownerId: string): UniqueKeyCommand => ({ type: 'Release', data: { ownerId } });
const reserved = (ownerId: string): UniqueKeyEvent => ({ type: 'KeyReserved', data: { ownerId } });
const released = (ownerId: string): UniqueKeyEvent => ({ type: 'KeyReleased', data: { ownerId } });

t.test('normalising and stream names', async (t) => {
  t.equal(normaliseEmail('  Ann.Lee@Haul.Example '), 'ann.lee@haul.example');
  t.equal(normaliseUsername(' AnnLee\t'), 'annlee');
  t.equal(emailKeyStream(' Ann@Haul.Example'), 'unique-email-ann@haul.example');
  t.equal(usernameKeyStream('Ann '), 'unique-username-ann');
  t.equal(
    emailKeyStream('ANN@haul.example'),
    emailKeyStream('ann@HAUL.example'),
    'case variants share one stream',
  );
  t.same(uniqueKeyFor('email', 'A@b.co'), {
    stream: 'unique-email-a@b.co',
    decider: emailKeyDecider,
  });
  t.same(uniqueKeyFor('username', 'Bob'), {
    stream: 'unique-username-bob',
    decider: usernameKeyDecider,
  });
});

for (const [kind, decider, message] of [
  ['email', emailKeyDecider, /^Email already registered$/],
  ['username', usernameKeyDecider, /^Username already taken$/],
] as const) {
  const given = specFor(decider);
  t.test(`${kind} key: Reserve`, async (t) => {
    t.test('a free key is reserved', async () =>
      given([])
        .when(reserve(alice))
        .then([reserved(alice)]),
    );
    t.test('the holder reserving again records nothing', async () =>
      given([reserved(alice)])
        .when(reserve(alice))
        .then([]),
    );
    t.test('refuses a key held by someone else', async () =>
      given([reserved(alice)])
        .when(reserve(bob))
        .thenThrows(ConflictError, message),
    );
    t.test('a released key can be reserved again', async () =>
      given([reserved(alice), released(alice)])
        .when(reserve(bob))
        .then([reserved(bob)]),
    );
  });
  t.test(`${kind} key: Release`, async (t) => {
    t.test('the holder releases it', async () =>
      given([reserved(alice)])
        .when(release(alice))
        .then([released(alice)]),
    );
    t.test('releasing a free key records nothing', async () =>
      given([]).when(release(alice)).then([]),
    );
    t.test('releasing a released key records nothing', async () =>
      given([reserved(alice), released(alice)])
        .when(release(alice))
        .then([]),
    );
    t.test('refuses a release by someone who does not hold it', async () =>
      given([reserved(alice)])
        .when(release(bob))
        .thenThrows(ConflictError, /held by another user/),
    );
  });
}

t.test('the conflict names the field', async (t) => {
  try {
    emailKeyDecider.decide(reserve(bob), { ownerId: alice });
    t.fail('should throw');
  } catch (error) {
    t.same((error as ConflictError).errors, [
      { path: 'email', message: 'Email already registered' },
    ]);
    t.equal((error as ConflictError).statusCode, 409);
  }
});

t.test('evolve tracks the holder', async (t) => {
  const fold = (events: UniqueKeyEvent[]) => events.reduce(evolveUniqueKey, initialUniqueKey());
  t.same(fold([]), { ownerId: null });
  t.same(fold([reserved(alice)]), { ownerId: alice });
  t.same(fold([reserved(alice), released(alice), reserved(bob)]), { ownerId: bob });
});
