import t from 'tap';
import { ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { CHAT_MESSAGE_MAX_LENGTH, tourChatDecider, type TourChatEvent } from './tourChat.decide.ts';
import type { MessagePosted, PostMessage } from './tour.types.ts';

const given = specFor(tourChatDecider);
const tourId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const userId = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const organizationId = '6c1d4d2f-7b66-4c2f-8e7d-1d8e1e7a0b12';
const now = '2026-12-02T08:00:00.000Z';

const post = (text: string, messageId = 'message-1'): PostMessage => ({
  type: 'PostMessage',
  data: { tourId, messageId, userId, userName: 'Dan Driver', organizationId, text, now },
});
const posted = (text: string, messageId = 'message-1'): MessagePosted => ({
  type: 'MessagePosted',
  data: { tourId, messageId, userId, userName: 'Dan Driver', organizationId, text, postedAt: now },
});

t.test('PostMessage', async (t) => {
  t.test('posts the trimmed text', async () =>
    given([])
      .when(post('  At the gate  '))
      .then([posted('At the gate')]),
  );
  t.test('posts after earlier messages', async () =>
    given([posted('one', 'm0')])
      .when(post('two'))
      .then([posted('two')]),
  );
  t.test('refuses an empty message', async () =>
    given([])
      .when(post(' \n '))
      .thenThrows(ValidationError, /^Please enter a message$/),
  );
  t.test('takes 2000 characters', async () =>
    given([])
      .when(post('x'.repeat(2000)))
      .then([posted('x'.repeat(2000))]),
  );
  t.test('takes 2000 characters once trimmed', async () =>
    given([])
      .when(post(` ${'x'.repeat(2000)} `))
      .then([posted('x'.repeat(2000))]),
  );
  t.test('counts an emoji as one character', async () =>
    given([])
      .when(post('🚚'.repeat(2000)))
      .then([posted('🚚'.repeat(2000))]),
  );
  t.test('refuses 2001 characters', async (t) => {
    t.equal(CHAT_MESSAGE_MAX_LENGTH, 2000);
    given([])
      .when(post('x'.repeat(2001)))
      .thenThrows(ValidationError, /^A message can have at most 2000 characters$/);
    t.throws(() => tourChatDecider.decide(post(''), tourChatDecider.initialState()), {
      errors: [{ path: 'message', message: 'Please enter a message' }],
    });
  });
});

t.test('the chat counts its messages', async (t) => {
  const events: TourChatEvent[] = [posted('one', 'm1'), posted('two', 'm2'), posted('three', 'm3')];
  t.same(events.reduce(tourChatDecider.evolve, tourChatDecider.initialState()), {
    messageCount: 3,
  });
});
