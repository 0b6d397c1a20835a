import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { messagePosted, position, positionRecorded, positionsRecorded } from '../testing/tours.ts';
import { tourPositionsProjection } from './tourPositions.projection.ts';

const spec = readModelSpec(tourPositionsProjection, openTestDatabase);
t.teardown(spec.close);

const tour = 'bbbb1111-2222-4333-8444-555566667777';
const otherTour = 'bbbb1111-2222-4333-8444-555566667778';

t.test('positions from the driver’s phone, one an event, each with its revision', async () => {
  await spec
    .given(
      positionRecorded(tour, position('2026-12-05T09:00:00.000Z', 41.8781, -87.6298, 0)),
      positionRecorded(tour, position('2026-12-05T09:05:00.000Z', 41.8, -87.5, 52.5)),
    )
    .expectRows('tour_positions_view', [
      {
        tour_id: tour,
        latitude: 41.8781,
        longitude: -87.6298,
        speed: 0,
        heading: 90,
        accuracy: 5,
        source: 'driver',
        recorded_at: '2026-12-05T09:00:00.000Z',
        stream_revision: '0',
        position_index: 0,
      },
      {
        tour_id: tour,
        latitude: 41.8,
        longitude: -87.5,
        speed: 52.5,
        heading: 90,
        accuracy: 5,
        source: 'driver',
        recorded_at: '2026-12-05T09:05:00.000Z',
        stream_revision: '1',
        position_index: 0,
      },
    ]);
});

t.test('a batch from the ELD is one event: its positions numbered in order, per tour', async () => {
  await spec
    .given(
      positionsRecorded(tour, [
        position('2026-12-05T09:00:00.000Z', 41.1, -87.1),
        position('2026-12-05T09:01:00.000Z', 41.2, -87.2, null),
        position('2026-12-05T09:02:00.000Z', 41.3, -87.3),
      ]),
      positionsRecorded(otherTour, [position('2026-12-05T09:00:00.000Z', 40, -86)]),
    )
    .expectRows('tour_positions_view', [
      {
        tour_id: tour,
        latitude: 41.1,
        speed: 55,
        source: 'eld',
        stream_revision: '0',
        position_index: 0,
      },
      {
        tour_id: tour,
        latitude: 41.2,
        speed: null,
        source: 'eld',
        stream_revision: '0',
        position_index: 1,
      },
      {
        tour_id: tour,
        latitude: 41.3,
        speed: 55,
        source: 'eld',
        stream_revision: '0',
        position_index: 2,
      },
      {
        tour_id: otherTour,
        latitude: 40,
        speed: 55,
        source: 'eld',
        stream_revision: '0',
        position_index: 0,
      },
    ]);
});

t.test('a chat message moves no truck', async () => {
  await spec
    .given(
      messagePosted(tour, {
        at: '2026-12-05T09:00:00.000Z',
        messageId: otherTour,
        text: 'On my way',
      }),
    )
    .expectRows('tour_positions_view', []);
});
