import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { messagePosted, position, positionRecorded } from '../testing/tours.ts';
import { carrier, driver } from '../testing/trade.ts';
import { tourChatProjection } from './tourChat.projection.ts';

const spec = readModelSpec(tourChatProjection, openTestDatabase);
t.teardown(spec.close);

const tour = 'bbbb1111-2222-4333-8444-555566667777';
const otherTour = 'bbbb1111-2222-4333-8444-555566667778';
const hello = 'aeae1111-2222-4333-8444-555566667777';
const late = 'aeae1111-2222-4333-8444-555566667778';

t.test('each tour’s chat, message by message, with who wrote it', async () => {
  await spec
    .given(
      messagePosted(tour, { at: '2026-12-05T09:00:00.000Z', messageId: hello, text: 'Loaded' }),
      messagePosted(otherTour, {
        at: '2026-12-05T10:00:00.000Z',
        messageId: late,
        text: 'Running 30 minutes late',
        userName: 'Lee',
      }),
    )
    .expectRows('chat_messages_view', [
      {
        id: hello,
        tour_id: tour,
        user_id: driver,
        user_name: 'Dana Driver',
        organization_id: carrier,
        text: 'Loaded',
        posted_at: '2026-12-05T09:00:00.000Z',
      },
      {
        id: late,
        tour_id: otherTour,
        user_id: driver,
        user_name: 'Lee',
        organization_id: carrier,
        text: 'Running 30 minutes late',
        posted_at: '2026-12-05T10:00:00.000Z',
      },
    ]);
});

t.test('a message delivered twice is shown once, as first posted', async () => {
  await spec
    .given(
      messagePosted(tour, { at: '2026-12-05T09:00:00.000Z', messageId: hello, text: 'Loaded' }),
      messagePosted(tour, { at: '2026-12-05T09:01:00.000Z', messageId: hello, text: 'Again' }),
    )
    .expectRows('chat_messages_view', [{ id: hello, text: 'Loaded' }]);
});

t.test('a truck’s position is no message', async () => {
  await spec
    .given(positionRecorded(tour, position('2026-12-05T09:00:00.000Z', 41.8, -87.6)))
    .expectRows('chat_messages_view', []);
});
